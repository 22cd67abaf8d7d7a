import { describe, expect, it } from 'vitest';
import type { Node } from '../../src/core/definitions/json';
import {
  changeField,
  fieldDesignOf,
  fieldPlaces,
  fileText,
  sectionFields,
  type FormFiles,
} from '../../src/core/studio/schema-design';
import { serverModules } from '../../src/modules/server';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { checkDefinitions, DefinitionsError } from '../../src/server/definitions/load';
import { PROJECT_ROOT } from '../../src/server/config';

/** The checker's problems with a form's files in place of the project's (none: valid). */
async function problemsOf(id: string, form: FormFiles): Promise<string[]> {
  const changed = new Map(await readDefinitionFiles(PROJECT_ROOT));
  changed.set(`schemas/${id}.schema.json`, fileText(form.entity));
  changed.set(`translations/en/${id}.json`, fileText(form.en));
  changed.set(`translations/fr/${id}.json`, fileText(form.fr));
  changed.set('translations/en.json', fileText(form.shared!.en));
  changed.set('translations/fr.json', fileText(form.shared!.fr));
  changed.set(`workflows/${id}.json`, fileText(form.workflow));
  try {
    await checkDefinitions(changed, serverModules);
    return [];
  } catch (error) {
    if (error instanceof DefinitionsError)
      return error.problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`);
    throw error;
  }
}

/** Every project form as the designer reads it: its schema, texts, shared texts and workflow. */
async function projectForms(): Promise<Array<{ id: string; form: FormFiles }>> {
  const files = await readDefinitionFiles(PROJECT_ROOT);
  const read = (path: string) => JSON.parse(files.get(path) ?? '{}') as Node;
  const workflows = [...files.keys()]
    .filter((path) => /^workflows\/[^/]+\.json$/.test(path))
    .map((path) => read(path));
  return [...files.keys()]
    .flatMap((path) => /^schemas\/([^/]+)\.schema\.json$/.exec(path)?.[1] ?? [])
    .sort()
    .map((id) => ({
      id,
      form: {
        entity: read(`schemas/${id}.schema.json`),
        en: read(`translations/en/${id}.json`),
        fr: read(`translations/fr/${id}.json`),
        shared: { en: read('translations/en.json'), fr: read('translations/fr.json') },
        workflow: workflows.find((workflow) => workflow.document === id),
      },
    }));
}

describe('changing a field of a project form as it is read back', () => {
  // Every field of every project form, written back: seconds alone, minutes on a busy machine.
  it(
    'leaves every file as it was, for every field the designer reads back',
    { timeout: 300_000 },
    async () => {
      const forms = await projectForms();
      expect(forms.length).toBeGreaterThan(5);
      const failures: string[] = [];
      const unread: string[] = [];
      let read = 0;
      for (const { id, form } of forms) {
        // Compared as text: a deep equality of the whole form per field took a minute under load.
        const before = JSON.stringify(form);
        const workflowText = JSON.stringify(form.workflow);
        for (const place of fieldPlaces(form.entity))
          for (const name of sectionFields(form, place)) {
            const where = `${id}: ${place}/${name}`;
            const design = fieldDesignOf(form, place, name);
            if (JSON.stringify(form) !== before) failures.push(`${where} (read changed the form)`);
            if (!design) {
              unread.push(where);
              continue;
            }
            read++;
            const changed = changeField(form, design);
            const files = ['entity', 'en', 'fr'] as const;
            for (const file of files)
              if (fileText(changed[file]) !== fileText(form[file]))
                failures.push(`${where} (${file})`);
            for (const language of ['en', 'fr'] as const)
              try {
                expect(changed.shared?.[language]).toEqual(form.shared?.[language]);
              } catch {
                failures.push(`${where} (shared ${language})`);
              }
            if (JSON.stringify(changed.workflow) !== workflowText)
              failures.push(`${where} (workflow)`);
          }
      }
      console.info(
        `${read} fields read back; not read back (changed in the JSON):\n${unread.join('\n')}`,
      );
      expect(failures).toEqual([]);
      expect(read).toBeGreaterThan(unread.length);
    },
  );
});

describe('changing a field of the sponsor application', () => {
  const sponsor = async () =>
    (await projectForms()).find((form) => form.id === 'sponsor-application')!.form;
  const schemaOf = (form: FormFiles, ...names: string[]) =>
    names.reduce<Node>(
      (node, name) => (node.properties as Node)[name] as Node,
      form.entity.schema as Node,
    );

  it('changes a field’s kind in place, which the checker accepts, and changes it back to the same files', async () => {
    const form = await sponsor();
    const before = fieldDesignOf(form, 'contact', 'email')!;
    expect(before).toMatchObject({ type: 'email', required: true });
    const changed = changeField(form, {
      ...before,
      type: 'text',
      maxLength: 120,
      pattern: '^[^@]+@example\\.org$',
      patternMessageEn: 'An address of example.org',
      patternMessageFr: 'Une adresse d’example.org',
      labelEn: 'Work e-mail',
      helpFr: 'Celle du bureau',
      helpEn: 'The office one',
    });
    expect(schemaOf(changed, 'contact', 'email')).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 120,
    });
    const contact = (changed.entity.uiSchema as Node).contact as Node;
    expect(contact['ui:order']).toEqual(
      ((form.entity.uiSchema as Node).contact as Node)['ui:order'],
    );
    expect(contact.email).toBeUndefined();
    expect(Object.keys(schemaOf(changed, 'contact').properties as Node)).toEqual(
      Object.keys(schemaOf(form, 'contact').properties as Node),
    );
    expect(schemaOf(changed, 'contact').required).toEqual(schemaOf(form, 'contact').required);
    expect((changed.en.contact as Node).email as Node).toEqual({
      _: 'Work e-mail',
      help: 'The office one',
    });
    expect(changed.entity.rules).toContainEqual(
      expect.objectContaining({ rule: 'matches', path: '/contact/email' }),
    );
    expect(fieldDesignOf(changed, 'contact', 'email')).toMatchObject({
      type: 'text',
      pattern: '^[^@]+@example\\.org$',
      patternMessageFr: 'Une adresse d’example.org',
    });
    expect(await problemsOf('sponsor-application', changed)).toEqual([]);
    // Back as it was: the same files, the message gone with its rule.
    expect(changeField(changed, before)).toEqual(form);
  });

  it('keeps a date’s own rule where it was, and a group’s fields when only its texts change', async () => {
    const form = await sponsor();
    const birth = fieldDesignOf(form, 'person', 'birthDate')!;
    const changed = changeField(form, { ...birth, type: 'dateTime', labelFr: 'Naissance' });
    expect(changed.entity.rules).toEqual(form.entity.rules);
    expect(schemaOf(changed, 'person', 'birthDate')).toMatchObject({ format: 'date-time' });
    const address = fieldDesignOf(form, 'contact', 'address')!;
    expect(address.type).toBe('group');
    const relabelled = changeField(form, { ...address, labelEn: 'Home address' });
    expect(relabelled.entity).toEqual(form.entity);
    expect((relabelled.en.contact as Node).address).toEqual({
      ...((form.en.contact as Node).address as Node),
      _: 'Home address',
    });
    expect(relabelled.fr).toEqual(form.fr);
  });
});
