import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/server/definitions/ajv';
import { acceptedOnce, compiledOnce } from '../../src/server/definitions/compiled-once';

const schema = (maximum: number) => ({
  type: 'object',
  properties: { n: { type: 'number', maximum } },
});

describe('schemas compiled once per text', () => {
  it('gives two equal schemas, made apart, the same check, and a different schema its own', () => {
    const compile = compiledOnce(createAjv());
    const first = compile(schema(3));
    expect(compile(schema(3))).toBe(first);
    const other = compile(schema(5));
    expect(other).not.toBe(first);
    expect(first({ n: 4 })).toBe(false);
    expect(other({ n: 4 })).toBe(true);
  });

  it('keeps the most recently used only, and drops the others from Ajv too', () => {
    const ajv = createAjv();
    const compile = compiledOnce(ajv, 2);
    const kept = { type: 'object', $id: 'https://example.org/kept' };
    const keptCheck = compile(kept);
    compile(schema(1));
    expect(compile({ type: 'object', $id: 'https://example.org/kept' })).toBe(keptCheck);
    compile(schema(2));
    // schema(1) was the least recently used: dropped, and compiled again when asked.
    expect(ajv.getSchema('https://example.org/kept')).toBeDefined();
    compile(schema(3));
    compile(schema(4));
    expect(ajv.getSchema('https://example.org/kept')).toBeUndefined();
    expect(compile({ type: 'object', $id: 'https://example.org/kept' })).not.toBe(keptCheck);
  });

  it('remembers the texts a check accepted, not the objects', () => {
    const accepted = acceptedOnce(1);
    accepted.add(schema(1));
    expect(accepted.has(schema(1))).toBe(true);
    expect(accepted.has(schema(2))).toBe(false);
    accepted.add(schema(2));
    expect(accepted.has(schema(1))).toBe(false);
  });
});
