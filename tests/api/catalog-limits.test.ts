import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isEnabled,
  referencedCatalog,
  type CatalogDefinition,
  type JsonSchema,
} from '../../src/core/definitions/types';
import { PROJECT_ROOT } from '../../src/server/config';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

/**
 * Section 5's length limits, read from the catalogue files themselves: for every catalogue and
 * every limited text field, a value at the limit is stored and one character over (or under a
 * minimum) is refused with a per-field message, storing nothing. A new catalogue file is covered
 * without touching this test.
 */
const CATALOGS: CatalogDefinition[] = fs
  .readdirSync(path.join(PROJECT_ROOT, 'catalogs'))
  .filter((name) => name.endsWith('.json'))
  .map(
    (name) =>
      JSON.parse(
        fs.readFileSync(path.join(PROJECT_ROOT, 'catalogs', name), 'utf8'),
      ) as CatalogDefinition,
  )
  .filter(isEnabled);
const byId = new Map(CATALOGS.map((c) => [c.id, c]));

const propertiesOf = (catalog: CatalogDefinition) =>
  (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;

interface LimitCase {
  catalog: CatalogDefinition;
  field: string;
  limit: 'maxLength' | 'minLength';
  length: number;
  accepted: boolean;
  /** The limit of the field's text in another language (a translatable field's `i18n`). */
  language?: string;
}

/**
 * Every limit of every catalogue: at the limit (accepted), and one past it (refused); for a
 * translatable field, its French text's too. A field only the system writes (`readOnly`) is no
 * caller's to give: what is sent there is not taken (country-catalogue.test.ts).
 */
const CASES: LimitCase[] = CATALOGS.flatMap((catalog) =>
  Object.entries(propertiesOf(catalog)).flatMap(([field, property]) => {
    if (property.readOnly === true) return [];
    const cases: LimitCase[] = [];
    const max = property.maxLength;
    const min = property.minLength;
    if (typeof max === 'number') {
      cases.push({ catalog, field, limit: 'maxLength', length: max, accepted: true });
      cases.push({ catalog, field, limit: 'maxLength', length: max + 1, accepted: false });
    }
    if (typeof min === 'number' && min > 0) {
      if (min !== max)
        cases.push({ catalog, field, limit: 'minLength', length: min, accepted: true });
      cases.push({ catalog, field, limit: 'minLength', length: min - 1, accepted: false });
    }
    const translated = (catalog.translatable ?? []).includes(field)
      ? cases.map((limit) => ({ ...limit, language: 'fr' }))
      : [];
    return [...cases, ...translated];
  }),
);

const MOBILE = '^\\+?[0-9 ()-]{6,20}$';

/** A text of exactly `length` characters that satisfies the field's format and pattern. */
function textOf(property: JsonSchema, length: number, letter: string): string | undefined {
  if (Array.isArray(property.enum))
    return property.enum.map(String).find((v) => v.length === length);
  if (property.format === 'email') {
    const domain = '@example.org';
    return length > domain.length
      ? `${letter.toLowerCase().repeat(length - domain.length)}${domain}`
      : undefined;
  }
  if (property.pattern === MOBILE)
    return length >= 6 || length === 0 ? '6'.repeat(length) : undefined;
  return letter.repeat(length);
}

/** The smallest value a field accepts (a text of its minimum length, a number, true). */
function plainValue(property: JsonSchema, letter: string): unknown {
  if (property.type === 'boolean') return true;
  if (property.type === 'integer' || property.type === 'number')
    return typeof property.minimum === 'number' ? Math.max(property.minimum, 1) : 1;
  if (Array.isArray(property.enum)) return property.enum[0];
  if (property.format === 'email') return `${letter.toLowerCase()}@example.org`;
  if (property.pattern === MOBILE) return '+6787771234';
  const min = typeof property.minLength === 'number' ? property.minLength : 1;
  return letter.repeat(Math.max(min, 1));
}

describe.each(databaseKinds())('catalogue limits of section 5 on %s', (kind) => {
  let api: ApiHarness;
  let manager: string;
  /** The key of the entry each referenced catalogue has for references to name ('R...'). */
  const targets = new Map<string, string>();
  let day = 0;

  beforeAll(async () => {
    api = await startApiServer(kind);
    manager = await api.tokenFor(['catalog-manage', 'sso-catalog-manage', 'asypx-catalog-manage']);
    // One entry in every catalogue another one references, named by its single key field.
    const referenced = new Set(
      CATALOGS.flatMap((c) =>
        Object.values(c.references ?? {}).flatMap((r) => [
          r.catalog,
          ...Object.values(r.catalogs ?? {}),
        ]),
      ),
    );
    const pending = [...referenced];
    while (pending.length > 0) {
      const id = pending.shift()!;
      const catalog = byId.get(id)!;
      const waiting = Object.values(catalog.references ?? {}).some(
        (r) => r.catalog !== id && referenced.has(r.catalog) && !targets.has(r.catalog),
      );
      if (waiting) {
        pending.push(id);
        continue;
      }
      const entry = entryFor(catalog, 'R', '2021-01-01T00:00:00Z');
      const response = await post(catalog, entry);
      expect(response.statusCode, `${id}: ${response.body}`).toBe(201);
      targets.set(id, String(entry[catalog.key[0]!]));
    }
  });
  afterAll(async () => api?.close());

  const post = (catalog: CatalogDefinition, body: Record<string, unknown>) =>
    api.call('POST', `/api/catalog/v1/${catalog.id}`, { token: manager, body });

  /** A valid entry: references name the target entries, other fields their smallest value. */
  function entryFor(
    catalog: CatalogDefinition,
    letter: string,
    startTime: string,
    endTime?: string,
  ): Record<string, unknown> {
    const entry: Record<string, unknown> = { startTime, ...(endTime ? { endTime } : {}) };
    for (const [field, property] of Object.entries(propertiesOf(catalog)))
      entry[field] = plainValue(property, letter);
    for (const [field, reference] of Object.entries(catalog.references ?? {})) {
      const target = targets.get(referencedCatalog(reference, entry));
      if (target !== undefined) entry[field] = target;
    }
    return entry;
  }

  /** Each case gets its own day, so entries sharing a key never overlap. */
  const nextPeriod = () => {
    const start = new Date(Date.UTC(2022, 0, 1) + day * 86_400_000);
    day += 1;
    return [start.toISOString(), new Date(start.getTime() + 86_400_000).toISOString()] as const;
  };

  const count = async (catalog: CatalogDefinition) =>
    (
      await api.call('PATCH', `/api/catalog/v1/${catalog.id}`, {
        token: manager,
        body: { options: { page: 1, itemsPerPage: 1 } },
      })
    ).json().total as number;

  it('covers every catalogue file and every limit', () => {
    expect(CATALOGS.length).toBeGreaterThanOrEqual(32);
    const limited = new Set(CASES.map((c) => c.catalog.id));
    for (const catalog of CATALOGS) expect(limited, catalog.id).toContain(catalog.id);
  });

  it.each(CATALOGS.map((c) => [c.id, c] as const))(
    '%s: accepted at each limit, refused one character past it, storing nothing',
    async (_id, catalog) => {
      const before = await count(catalog);
      let stored = 0;
      for (const limit of CASES.filter((c) => c.catalog === catalog)) {
        const [startTime, endTime] = nextPeriod();
        const entry = entryFor(catalog, 'Q', startTime, endTime);
        const property = propertiesOf(catalog)[limit.field]!;
        const reference = catalog.references?.[limit.field];
        // A reference's value is the code of an entry made for it ('S...'), apart from the
        // catalogue's own entries ('Q...') and the targets every entry names ('R...').
        const value = textOf(property, limit.length, reference ? 'S' : 'Q');
        if (value === undefined) {
          // An enumerated field has no value of this length: the limit is enforced by the enum.
          expect(limit.accepted, `${catalog.id}.${limit.field} ${limit.length}`).toBe(false);
          continue;
        }
        if (limit.language) entry.i18n = { [limit.language]: { [limit.field]: value } };
        else entry[limit.field] = value;
        const path = limit.language ? `/i18n/${limit.language}/${limit.field}` : `/${limit.field}`;
        const label = `${catalog.id}${path} (${limit.limit} ${limit.length} chars)`;
        let unreachable = false;
        if (reference && limit.accepted) {
          // The referenced entry must exist: create it with this code, if its catalogue can.
          const target = byId.get(referencedCatalog(reference, entry))!;
          const made = await post(target, {
            ...entryFor(target, 'S', '2021-01-01T00:00:00Z'),
            [target.key[0]!]: value,
          });
          unreachable = made.statusCode === 400;
        }
        const response = await post(catalog, entry);
        if (limit.accepted && !unreachable) {
          expect(response.statusCode, `${label}: ${response.body}`).toBe(201);
          stored += 1;
        } else if (limit.accepted) {
          // Longer than any code the referenced catalogue holds: the length passes, the
          // reference cannot name anything.
          expect(response.statusCode, label).toBe(400);
          const fields = response.json().error.fields as Array<{ path: string; rule: string }>;
          expect(fields, label).toEqual([
            expect.objectContaining({ path: `/${limit.field}`, rule: 'referenceUnknown' }),
          ]);
        } else {
          expect(response.statusCode, label).toBe(400);
          const fields = response.json().error.fields as Array<{
            path: string;
            rule: string;
            message: string;
          }>;
          expect(fields, label).toContainEqual(
            expect.objectContaining({
              path,
              rule: limit.limit,
              message: expect.stringMatching(/\d/),
            }),
          );
        }
      }
      expect(await count(catalog)).toBe(before + stored);
    },
  );
});
