import { describe, expect, it } from 'vitest';
import type { Node } from '../../src/core/definitions/json';
import type { EntityDefinition } from '../../src/core/definitions/types';
import { translate, type TextTree } from '../../src/core/i18n/translate';
import { runRules } from '../../src/core/rules/registry';
import { FIELD_KINDS, constraintProblems, type FieldKind } from '../../src/core/studio/field-kinds';
import {
  addField,
  columnLists,
  fieldPlaces,
  fileText,
  removeField,
  setFieldColumn,
  setSectionCondition,
  type FormFieldDesign,
  type FormFiles,
} from '../../src/core/studio/schema-design';
import { toFieldErrors } from '../../src/core/validation/field-errors';
import { serverModules } from '../../src/modules/server';
import { createAjv } from '../../src/server/definitions/ajv';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { checkDefinitions, DefinitionsError } from '../../src/server/definitions/load';
import { PROJECT_ROOT } from '../../src/server/config';

const ENTITY = 'sponsor-application';
const PATHS = {
  entity: `schemas/${ENTITY}.schema.json`,
  en: `translations/en/${ENTITY}.json`,
  fr: `translations/fr/${ENTITY}.json`,
  sharedEn: 'translations/en.json',
  sharedFr: 'translations/fr.json',
  workflow: `workflows/${ENTITY}.json`,
};

async function project() {
  const files = await readDefinitionFiles(PROJECT_ROOT);
  const read = (path: string) => JSON.parse(files.get(path) ?? '{}') as Node;
  const form: FormFiles = {
    entity: read(PATHS.entity),
    en: read(PATHS.en),
    fr: read(PATHS.fr),
    shared: { en: read(PATHS.sharedEn), fr: read(PATHS.sharedFr) },
    workflow: read(PATHS.workflow),
  };
  return { files, form };
}

/** The checker's problems with the form's files in place of the project's (none: valid). */
async function problemsOf(files: Map<string, string>, form: FormFiles): Promise<string[]> {
  const changed = new Map(files);
  changed.set(PATHS.entity, fileText(form.entity));
  changed.set(PATHS.en, fileText(form.en));
  changed.set(PATHS.fr, fileText(form.fr));
  changed.set(PATHS.sharedEn, fileText(form.shared!.en));
  changed.set(PATHS.sharedFr, fileText(form.shared!.fr));
  changed.set(PATHS.workflow, fileText(form.workflow));
  try {
    await checkDefinitions(changed, serverModules);
    return [];
  } catch (error) {
    if (error instanceof DefinitionsError)
      return error.problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`);
    throw error;
  }
}

const base = (name: string, type: FieldKind, section = 'contact'): FormFieldDesign => ({
  section,
  name,
  type,
  required: false,
  labelEn: `${name} label`,
  labelFr: `libellé ${name}`,
});

/** A design of every kind, with the constraints each asks for. */
const EVERY_KIND: Record<FieldKind, Partial<FormFieldDesign>> = {
  text: { minLength: 2, maxLength: 30, required: true },
  longText: { maxLength: 500 },
  number: { minimum: 1, maximum: 9, integer: true },
  money: {},
  date: {},
  dateTime: {},
  yesNo: {},
  enumeration: {
    options: [
      { value: 'AM', labelEn: 'Morning', labelFr: 'Matin' },
      { value: 'PM', labelEn: 'Afternoon', labelFr: 'Après-midi' },
    ],
  },
  catalog: { catalog: 'country', maxLength: 2 },
  documentReference: { documentType: 'sponsor-application', documentStatuses: ['GRANTED'] },
  file: {},
  phone: {},
  email: {},
  group: {},
  list: { minItems: 0, maxItems: 3 },
};

const validatorOf = (entity: Node) =>
  createAjv().compile((entity as unknown as EntityDefinition).schema);

describe('the form designer’s field kinds', () => {
  it('adds a field of every kind the engine draws, which the real checker accepts', async () => {
    const { files, form } = await project();
    let next = form;
    for (const kind of FIELD_KINDS) {
      const design = {
        ...base(`new${kind[0]!.toUpperCase()}${kind.slice(1)}`, kind),
        ...EVERY_KIND[kind],
      };
      expect(constraintProblems(kind, design)).toEqual([]);
      next = addField(next, design);
    }
    // A field inside the new group and the new list: they are places of their own.
    expect(fieldPlaces(next.entity)).toEqual(
      expect.arrayContaining(['contact/newGroup', 'contact/newList']),
    );
    next = addField(next, { ...base('inGroup', 'text', 'contact/newGroup') });
    next = addField(next, { ...base('inList', 'date', 'contact/newList'), required: true });
    expect(await problemsOf(files, next)).toEqual([]);
    const contact = (next.entity.schema as Node & { properties: Record<string, Node> }).properties
      .contact!;
    expect(contact.properties).toMatchObject({
      newNumber: { type: 'integer', minimum: 1, maximum: 9 },
      newEnumeration: { type: 'string', enum: ['AM', 'PM'] },
      newDateTime: { type: 'string', format: 'date-time' },
      newList: {
        type: 'array',
        maxItems: 3,
        items: { properties: { inList: { format: 'date' } } },
      },
    });
    expect((next.entity.uiSchema as Record<string, Node>).contact).toMatchObject({
      newCatalog: { 'ui:widget': 'catalog', 'ui:options': { catalog: 'country' } },
      newMoney: { 'ui:widget': 'money' },
      newFile: { 'ui:widget': 'file' },
      newYesNo: { 'ui:widget': 'yesNo' },
    });
    expect((next.fr.contact as Node).newEnumeration).toEqual({
      _: 'libellé newEnumeration',
      enum: { AM: 'Matin', PM: 'Après-midi' },
    });
    // The engine's validator enforces the constraints: a number out of bounds, a bad e-mail.
    const validate = validatorOf(next.entity);
    validate({ contact: { newNumber: 12, newEmail: 'not an address', newText: 'x' } });
    const failed = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(failed).toEqual(
      expect.arrayContaining([
        '/contact/newNumber maximum',
        '/contact/newEmail format',
        '/contact/newText minLength',
      ]),
    );
  });

  it('gives a pattern its own message in both languages, which browser and server show', async () => {
    const { files, form } = await project();
    const design: FormFieldDesign = {
      ...base('businessNumber', 'text', 'organisation'),
      pattern: '^[0-9]{11}$',
      patternMessageEn: 'Enter the 11 digits of the business number',
      patternMessageFr: 'Saisissez les 11 chiffres du numéro d’entreprise',
    };
    const next = addField(form, design);
    expect(await problemsOf(files, next)).toEqual([]);
    const rules = (next.entity as unknown as EntityDefinition).rules ?? [];
    const own = (data: Node) =>
      runRules(rules, data).filter((p) => p.path === '/organisation/businessNumber');
    const problems = own({ organisation: { businessNumber: '12AB' } });
    expect(problems).toHaveLength(1);
    const texts = { en: next.shared!.en as TextTree, fr: next.shared!.fr as TextTree };
    // The browser translates the rule's message key; the server sends it as the rule's name.
    expect(translate(texts, 'fr', problems[0]!.message)).toBe(design.patternMessageFr);
    const rule = problems[0]!.message.replace(/^validation\./, '');
    const [server] = toFieldErrors(
      [{ instancePath: problems[0]!.path, keyword: rule, params: {} }],
      texts,
      'en',
    );
    expect(server!.message).toBe(design.patternMessageEn);
    expect(own({ organisation: { businessNumber: '12345678901' } })).toEqual([]);
    // A pattern that is no regular expression, or one without its messages, is not written.
    expect(constraintProblems('text', { pattern: '([' })).toEqual(['pattern']);
    expect(constraintProblems('text', { pattern: '^a$' })).toEqual(['patternMessage']);
    // Removed with its field: the rule and its texts.
    const removed = removeField(next, 'organisation', 'businessNumber');
    expect(JSON.stringify(removed.entity.rules)).not.toContain('businessNumber');
    expect(JSON.stringify(removed.shared!.en)).not.toContain('businessNumber');
    expect(await problemsOf(files, removed)).toEqual([]);
  });

  it('requires a field when another holds a value, as the engine’s validator enforces', async () => {
    const { files, form } = await project();
    let next = addField(form, {
      ...base('website', 'text', 'organisation'),
      requiredWhen: { field: 'registrationNumber', operator: 'filled', values: [] },
    });
    next = addField(next, {
      ...base('investorDetails', 'longText', 'residence'),
      requiredWhen: { field: 'status', operator: 'oneOf', values: ['RESIDENT_INVESTOR', 'OTHER'] },
    });
    expect(await problemsOf(files, next)).toEqual([]);
    const validate = validatorOf(next.entity);
    const missing = (data: Node) => {
      validate(data);
      return (validate.errors ?? [])
        .filter((e) => e.keyword === 'required')
        .map((e) => `${e.instancePath}/${String(e.params.missingProperty)}`);
    };
    expect(missing({ organisation: { registrationNumber: 'R1' } })).toContain(
      '/organisation/website',
    );
    expect(missing({ organisation: {} })).not.toContain('/organisation/website');
    expect(missing({ residence: { status: 'OTHER' } })).toContain('/residence/investorDetails');
    expect(missing({ residence: { status: 'CITIZEN_OR_PR' } })).not.toContain(
      '/residence/investorDetails',
    );
    // Removing the field removes the condition naming it.
    const removed = removeField(next, 'residence', 'investorDetails');
    expect(JSON.stringify(removed.entity.schema)).not.toContain('investorDetails');
  });

  it('shows a section only when a condition holds, keeping it required while it applies', async () => {
    const { files, form } = await project();
    const next = setSectionCondition(form, 'assistant', {
      field: '/sponsorship/sponsorType',
      operator: 'equals',
      values: ['SPORG'],
    });
    expect(
      (next.entity.sections as Node[]).find((section) => section.id === 'assistant')?.when,
    ).toEqual({ pointer: '/sponsorship/sponsorType', in: ['SPORG'] });
    expect((next.entity.schema as Node).required).not.toContain('assistant');
    expect(await problemsOf(files, next)).toEqual([]);
    const validate = validatorOf(next.entity);
    validate({ sponsorship: { sponsorType: 'SPORG' } });
    expect(validate.errors?.some((e) => e.params.missingProperty === 'assistant')).toBe(true);
    validate({ sponsorship: { sponsorType: 'SPPER' } });
    expect(validate.errors?.some((e) => e.params.missingProperty === 'assistant')).toBe(false);
    const always = setSectionCondition(next, 'assistant', undefined);
    expect((always.entity.sections as Node[]).find((s) => s.id === 'assistant')?.when).toBe(
      undefined,
    );
  });

  it('shows a field as a column of the workflow’s lists, which filter and sort by it', async () => {
    const { files, form } = await project();
    let next = addField(form, {
      ...base('tradingName', 'text', 'organisation'),
      columnIn: ['find'],
    });
    next = setFieldColumn(next, 'contact', 'email', 'submitted', true);
    expect(columnLists(next, 'organisation', 'tradingName')).toEqual(['find']);
    expect(columnLists(next, 'contact', 'email')).toEqual(['submitted']);
    const find = (next.workflow!.lists as Node[]).find((list) => list.id === 'find')!;
    expect(find.columns).toContainEqual({
      field: 'tradingName',
      pointer: '/organisation/tradingName',
      label: 'sponsor-application.organisation.tradingName',
    });
    expect(await problemsOf(files, next)).toEqual([]);
    const hidden = setFieldColumn(next, 'contact', 'email', 'submitted', false);
    expect(columnLists(hidden, 'contact', 'email')).toEqual([]);
    const removed = removeField(next, 'organisation', 'tradingName');
    expect(columnLists(removed, 'organisation', 'tradingName')).toEqual([]);
  });
});
