import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EntityDefinition } from '../../src/core/definitions/types';
import { requiredSections } from '../../src/core/rules/sections';

const root = path.resolve(import.meta.dirname, '../..');
const schemaOf = async (id: string) =>
  JSON.parse(
    await fs.readFile(path.join(root, `schemas/${id}.schema.json`), 'utf8'),
  ) as EntityDefinition;

describe('the sections the task list marks as required', () => {
  it("the visa's: the schema's, the declaration, and the questions and files once listed", async () => {
    const visa = await schemaOf('visa-application');
    const listed = {
      characterQuestions: [{ code: 'CRIM', question: 'Convicted?' }],
      documents: [
        { code: 'PASS', mandatory: true },
        { code: 'PHOTO', mandatory: false },
      ],
    };
    expect([...requiredSections(visa, listed)].sort()).toEqual(
      [
        'visa',
        'applyingFrom',
        'applicant',
        'contact',
        'family',
        'health',
        'sponsorship',
        'characterQuestions',
        'declarations',
        'documents',
      ].sort(),
    );
    // Nothing listed yet, or only optional files: nothing to answer there.
    const optional = { documents: [{ code: 'PHOTO', mandatory: false }] };
    const marked = requiredSections(visa, optional);
    expect(marked.has('characterQuestions')).toBe(false);
    expect(marked.has('documents')).toBe(false);
    expect(marked.has('dependants')).toBe(false);
  });

  it("the sponsor's: an organisation's details once the sponsor is one, a person's otherwise", async () => {
    const sponsor = await schemaOf('sponsor-application');
    const organisation = requiredSections(sponsor, { sponsorship: { sponsorType: 'SPORG' } });
    expect(organisation.has('organisation')).toBe(true);
    expect(organisation.has('person')).toBe(false);
    const person = requiredSections(sponsor, { sponsorship: { sponsorType: 'SPPER' } });
    expect(person.has('person')).toBe(true);
    expect(person.has('organisation')).toBe(false);
  });
});
