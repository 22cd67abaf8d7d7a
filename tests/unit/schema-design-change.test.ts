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
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { PROJECT_ROOT } from '../../src/server/config';

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
  it('leaves every file as it was, for every field the designer reads back', async () => {
    const forms = await projectForms();
    expect(forms.length).toBeGreaterThan(5);
    const failures: string[] = [];
    const unread: string[] = [];
    let read = 0;
    for (const { id, form } of forms) {
      const before = structuredClone(form);
      for (const place of fieldPlaces(form.entity))
        for (const name of sectionFields(form, place)) {
          const where = `${id}: ${place}/${name}`;
          const design = fieldDesignOf(form, place, name);
          expect(form, `${where} read without change`).toEqual(before);
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
          try {
            expect(changed.workflow).toEqual(form.workflow);
          } catch {
            failures.push(`${where} (workflow)`);
          }
        }
    }
    console.info(
      `${read} fields read back; not read back (changed in the JSON):\n${unread.join('\n')}`,
    );
    expect(failures).toEqual([]);
    expect(read).toBeGreaterThan(unread.length);
  });
});
