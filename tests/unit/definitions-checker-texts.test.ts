import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  CatalogDefinition,
  EntityDefinition,
  WorkflowDefinition,
} from '../../src/core/definitions/types';
import { checkCatalogFields } from '../../src/server/definitions/check-catalog-fields';
import {
  checkNamedReferences,
  type NameScope,
} from '../../src/server/definitions/check-references';
import { checkRuleParams } from '../../src/server/definitions/check-rule-params';
import { reporter, type SaidProblem } from '../../src/server/definitions/problems';
import { projectCheckerTexts, worded } from '../support/checker-texts';
import { readProjectJson } from '../support/definitions-dir';

/**
 * The checks of names (references, catalogue fields, rule parameters) say each problem by a key
 * of the checker's texts: worded in English as the analyst has always read it, and in French for
 * a French analyst, both languages saying the same values.
 */

const messagesOf = (problems: readonly SaidProblem[], language: 'en' | 'fr' = 'en') =>
  worded(problems, language).map((p) => `${p.file}#${p.pointer}: ${p.message}`);

function scope(loaded: Partial<NameScope>): NameScope {
  return {
    catalogs: [],
    schemas: [],
    workflows: [],
    declared: [],
    translations: { en: {}, fr: {} },
    references: new Map(),
    ...loaded,
  };
}

describe('the checker texts of names', () => {
  it('gives every text in both languages, naming the same values', () => {
    const texts = projectCheckerTexts();
    const en = texts.en?.checker as Record<string, string>;
    const fr = texts.fr?.checker as Record<string, string>;
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en).filter((k) => !k.startsWith('$')))
      expect({ key, names: names(fr[key] ?? '') }).toEqual({ key, names: names(en[key] ?? '') });
  });

  it('has a text for every key the checker says, and none it never says', () => {
    const sources = readdirSync(join(import.meta.dirname, '../../src/server'), {
      recursive: true,
    })
      .map(String)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(import.meta.dirname, '../../src/server', file), 'utf8'))
      .join('\n');
    const said = new Set(
      [...sources.matchAll(/said\(\s*'([A-Za-z]+)'/g)].map((match) => match[1]!),
    );
    // Keys made from a name: a data move's failure (migration-run.ts) and Ajv's keywords (load.ts).
    expect(sources).toContain('said(`dataMove${why}`');
    const en = projectCheckerTexts().en?.checker as Record<string, string>;
    const base = (key: string) => key.replace(/_(one|other)$/, '');
    const texts = new Set(
      Object.keys(en)
        .filter((k) => !k.startsWith('$'))
        .map(base),
    );
    expect([...said].filter((key) => !texts.has(key))).toEqual([]);
    // A key chosen in code (a map of keys, a ternary) is named there as a string.
    const named = (key: string) => said.has(key) || new RegExp(`['"\`]${key}['"\`]`).test(sources);
    const made = /^(dataMove|schema|name)[A-Z]/;
    expect([...texts].filter((key) => !named(key) && !made.test(key))).toEqual([]);
  });

  it('says a missing text, catalogue and document type, in English and in French', () => {
    const problems: SaidProblem[] = [];
    const references = new Map([
      [
        'workflows/appeal.json',
        [
          { kind: 'text' as const, at: '/title', value: 'appeal.title' },
          { kind: 'catalog' as const, at: '/catalog', value: 'court' },
          { kind: 'document' as const, at: '/document', value: 'hearing' },
        ],
      ],
    ]);
    checkNamedReferences(
      scope({ references, translations: { en: { appeal: { title: 'Appeal' } }, fr: {} } }),
      problems,
    );
    expect(messagesOf(problems)).toEqual([
      'workflows/appeal.json#/title: no text "appeal.title" in fr',
      'workflows/appeal.json#/catalog: no catalogue "court" in catalogs/',
      'workflows/appeal.json#/document: no document type "hearing": no workflow has that id',
    ]);
    expect(messagesOf(problems, 'fr')).toEqual([
      'workflows/appeal.json#/title: aucun texte « appeal.title » dans la langue fr',
      'workflows/appeal.json#/catalog: aucun catalogue « court » dans catalogs/',
      "workflows/appeal.json#/document: aucun type de document « hearing » : aucun workflow n'a cet identifiant",
    ]);
    // A missing definition is named apart, so that a broken file's id is not said missing again.
    expect(problems.map((p) => p.params?.missingDefinition)).toEqual([
      undefined,
      'court',
      'hearing',
    ]);
  });

  it('says a catalogue field that cannot be translated or be money, in French', async () => {
    const fee = await readProjectJson<CatalogDefinition>('catalogs/document-fee.json');
    const problems: SaidProblem[] = [];
    checkCatalogFields(
      'catalogs/document-fee.json',
      { ...fee, translatable: ['name', 'code', 'amount'], money: { status: 'NZD', price: 'NZD' } },
      problems,
    );
    expect(messagesOf(problems)).toEqual([
      'catalogs/document-fee.json#/translatable/1: field "code" is a key: a code, the same in every language',
      'catalogs/document-fee.json#/translatable/2: field "amount" is not a text: only a text is given in every language',
      'catalogs/document-fee.json#/money/status: field "status" is not a number: only a number is an amount of money',
      'catalogs/document-fee.json#/money/price: "price" is not a field of the schema',
    ]);
    expect(messagesOf(problems, 'fr')).toEqual([
      'catalogs/document-fee.json#/translatable/1: le champ « code » est une clé : un code, le même dans toutes les langues',
      "catalogs/document-fee.json#/translatable/2: le champ « amount » n'est pas un texte : seul un texte se donne dans chaque langue",
      "catalogs/document-fee.json#/money/status: le champ « status » n'est pas un nombre : seul un nombre est un montant",
      "catalogs/document-fee.json#/money/price: « price » n'est pas un champ du schéma",
    ]);
  });

  it('says a rule parameter missing or naming nothing, in French', async () => {
    const fee = await readProjectJson<CatalogDefinition>('catalogs/document-fee.json');
    const visa = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
    const entity = {
      id: 'appeal',
      schema: { type: 'object', properties: {} },
      rules: [
        { rule: 'catalogEntryExists', path: '/court' },
        { rule: 'catalogEntryExists', path: '/fee', catalog: 'document-fee' },
        {
          rule: 'documentReference',
          path: '/visa',
          documentType: 'visa-application',
          status: ['GRANTED', 'LOST'],
        },
      ],
    } as unknown as EntityDefinition;
    const problems: SaidProblem[] = [];
    const report = reporter(problems, 'schemas/appeal.schema.json');
    checkRuleParams(entity, scope({ catalogs: [fee], declared: [visa] }), report);
    expect(messagesOf(problems)).toEqual([
      'schemas/appeal.schema.json#/rules/0: rule "catalogEntryExists" needs "catalog", the id of the catalogue whose entries the value names: without it every value fails the rule',
      'schemas/appeal.schema.json#/rules/1/catalog: catalogue "document-fee" has a key of 2 fields (documentCode, code); a value names an entry by a single key field: name a catalogue keyed by one field',
      'schemas/appeal.schema.json#/rules/2/status/1: no status "LOST" in the machine of "visa-application", so no document of it would ever be accepted: name one of its statuses',
    ]);
    expect(messagesOf(problems, 'fr')).toEqual([
      "schemas/appeal.schema.json#/rules/0: la règle « catalogEntryExists » a besoin de « catalog », l'identifiant du catalogue dont la valeur désigne les entrées : sans lui, toute valeur est refusée par la règle",
      'schemas/appeal.schema.json#/rules/1/catalog: le catalogue « document-fee » a une clé de 2 champs (documentCode, code) ; une valeur désigne une entrée par un seul champ clé : nommez un catalogue dont la clé est un seul champ',
      `schemas/appeal.schema.json#/rules/2/status/1: aucun statut "LOST" dans la machine de « visa-application » : aucun document de ce type ne serait jamais accepté. Nommez l'un de ses statuts`,
    ]);
  });
});
