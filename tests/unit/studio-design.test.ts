import { describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import {
  catalogOfDesign,
  designOfCatalog,
  designProblems,
  newCatalogDesign,
  newField,
} from '../../src/core/studio/catalog-design';
import {
  addField,
  fieldSections,
  moveField,
  removeField,
  sectionFields,
  type FormFiles,
} from '../../src/core/studio/schema-design';
import { flattenTexts, setText, textKeys } from '../../src/core/studio/text-keys';
import { readProjectJson } from '../support/definitions-dir';

/**
 * What the studio's forms write: a catalogue designed with fields becomes the definition the
 * checker reads (and an existing one keeps what the designer does not show); a field added to a
 * form lands in its schema, order, widget and both languages' texts; texts are set by key.
 */
describe('the catalogue designer', () => {
  it('turns a design into a catalogue definition with keys, columns, references and labels', () => {
    const design = {
      ...newCatalogDesign(),
      id: 'port-of-entry',
      category: 'configuration',
      searcherRoles: 'catalog-read',
      managerRoles: 'catalog-manage',
      titleEn: 'Ports of entry',
      titleFr: "Points d'entrée",
    };
    design.fields = [
      { ...design.fields[0]!, labelEn: 'Port code', labelFr: 'Code du point' },
      { ...design.fields[1]!, labelEn: 'Port name', labelFr: 'Nom du point', column: false },
      {
        name: 'country',
        type: 'text',
        maxLength: 2,
        required: false,
        key: false,
        column: true,
        reference: 'country',
        translatable: false,
        labelEn: 'Country',
        labelFr: 'Pays',
      },
    ];
    const catalog = catalogOfDesign(design);
    expect(catalog).toMatchObject({
      id: 'port-of-entry',
      key: ['code'],
      columns: ['code', 'country'],
      references: { country: { catalog: 'country' } },
      schema: {
        type: 'object',
        required: ['code', 'name'],
        properties: {
          code: { type: 'string', minLength: 1, maxLength: 10 },
          country: { type: 'string', maxLength: 2 },
        },
      },
      labels: {
        en: { title: 'Ports of entry', fields: { code: 'Port code', country: 'Country' } },
        fr: { title: "Points d'entrée", fields: { name: 'Nom du point', country: 'Pays' } },
      },
    });
    expect(designProblems(design)).toEqual([]);
  });

  it('keeps what it does not edit when an existing catalogue is changed', async () => {
    const country = await readProjectJson<CatalogDefinition & { $comment?: string }>(
      'catalogs/country-block.json',
    );
    const design = designOfCatalog(country);
    expect(design.fields.map((f) => f.name)).toEqual(Object.keys(country.schema.properties!));
    design.titleEn = 'Blocked nationalities';
    const changed = catalogOfDesign(design, country);
    expect(changed.labels.en.title).toBe('Blocked nationalities');
    // The pattern, note and references the designer does not show are kept.
    expect(changed.schema.properties).toEqual(country.schema.properties);
    expect(changed.references).toEqual(country.references);
    expect(changed.keyNote).toBe(country.keyNote);
  });

  it('writes the fields given in every language and the amounts of money, for the fields that may be', () => {
    const design = {
      ...newCatalogDesign(),
      id: 'port-fee',
      category: 'configuration',
      searcherRoles: 'catalog-read',
      managerRoles: 'catalog-manage',
      titleEn: 'Port fees',
      titleFr: 'Droits de port',
    };
    design.fields = [
      // A key stays a code, whatever its switch says.
      { ...design.fields[0]!, translatable: true },
      { ...design.fields[1]!, translatable: true },
      { ...newField('amount'), type: 'number', currency: 'NZD' },
      // A text is no amount.
      { ...newField('note'), currency: 'NZD' },
    ];
    const catalog = catalogOfDesign(design);
    expect(catalog.translatable).toEqual(['name']);
    expect(catalog.money).toEqual({ amount: 'NZD' });
    const again = designOfCatalog(catalog);
    expect(again.fields.map((f) => [f.name, f.translatable, f.currency])).toEqual([
      ['code', false, undefined],
      ['name', true, undefined],
      ['amount', false, 'NZD'],
      ['note', false, undefined],
    ]);
  });

  it('reads the switches of a catalogue of the project back as it has them', async () => {
    const fees = await readProjectJson<CatalogDefinition>('catalogs/sub-document-fee.json');
    const changed = catalogOfDesign(designOfCatalog(fees), fees);
    expect(changed.translatable).toEqual(fees.translatable);
    expect(changed.money).toEqual(fees.money);
  });

  it('refuses a bad identifier, no key and two fields of one name', () => {
    const design = { ...newCatalogDesign(), id: 'Port Of Entry' };
    design.fields = design.fields.map((f) => ({ ...f, key: false, name: 'code' }));
    expect(designProblems(design).map((p) => p.key)).toEqual([
      'studio.catalog.badId',
      'studio.catalog.noKey',
      'studio.catalog.sameField',
    ]);
  });
});

describe('the form designer', () => {
  const files = async (): Promise<FormFiles> => ({
    entity: await readProjectJson('schemas/sponsor-application.schema.json'),
    en: await readProjectJson('translations/en/sponsor-application.json'),
    fr: await readProjectJson('translations/fr/sponsor-application.json'),
  });

  it('adds a field to a section: schema, requirement, order, widget and both texts', async () => {
    const before = await files();
    expect(fieldSections(before.entity)).toContain('contact');
    const after = addField(before, {
      section: 'contact',
      name: 'preferredContactTime',
      type: 'longText',
      required: true,
      labelEn: 'Preferred time to call',
      labelFr: "Heure d'appel préférée",
      helpFr: 'Par exemple : le matin',
    });
    const contact = (after.entity.schema as { properties: Record<string, Record<string, unknown>> })
      .properties.contact!;
    expect((contact.properties as Record<string, unknown>).preferredContactTime).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 2000,
    });
    expect(contact.required).toContain('preferredContactTime');
    expect(sectionFields(after, 'contact').at(-1)).toBe('preferredContactTime');
    expect(
      (after.entity.uiSchema as Record<string, Record<string, unknown>>).contact!,
    ).toMatchObject({ preferredContactTime: { 'ui:widget': 'textarea' } });
    expect((after.en.contact as Record<string, unknown>).preferredContactTime).toBe(
      'Preferred time to call',
    );
    expect((after.fr.contact as Record<string, unknown>).preferredContactTime).toEqual({
      _: "Heure d'appel préférée",
      help: 'Par exemple : le matin',
    });
    // The files given are left as they were.
    expect(sectionFields(before, 'contact')).not.toContain('preferredContactTime');
    expect(() =>
      addField(after, {
        ...{ section: 'contact', name: 'preferredContactTime' },
        type: 'text',
        required: false,
        labelEn: 'x',
        labelFr: 'x',
      }),
    ).toThrow(/already has a field/);
  });

  it('moves and removes a field', async () => {
    const before = await files();
    const [first, second] = sectionFields(before, 'contact');
    const moved = moveField(before, 'contact', second!, -1);
    expect(sectionFields(moved, 'contact').slice(0, 2)).toEqual([second, first]);
    const removed = removeField(moved, 'contact', second!);
    expect(sectionFields(removed, 'contact')).not.toContain(second);
    expect((removed.en.contact as Record<string, unknown>)[second!]).toBeUndefined();
  });
});

describe('the texts editor', () => {
  it('lists every key of both languages and sets a text by its key', () => {
    const en = flattenTexts({ $schema: 'x', title: 'Studio', tabs: { forms: 'Forms' } });
    const fr = flattenTexts({ title: 'Atelier' });
    expect(textKeys(en, fr)).toEqual(['title', 'tabs.forms']);
    expect(fr.get('tabs.forms')).toBeUndefined();
    expect(setText({ field: 'Label' }, 'field.help', 'Help')).toEqual({
      field: { _: 'Label', help: 'Help' },
    });
    expect(setText({ a: { b: 'x', c: 'y' } }, 'a.b', '')).toEqual({ a: { c: 'y' } });
  });
});
