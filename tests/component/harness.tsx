import fs from 'node:fs/promises';
import path from 'node:path';
import { createRef, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { JsonSchema } from '../../src/core/definitions/types';
import type { Language, TextTree } from '../../src/core/i18n/translate';
import type { EntityFormDefinition } from '../../src/core/rules/sections';
import { DocumentForm } from '../../src/engine/form/DocumentForm';
import type {
  DocumentData,
  DocumentFormHandle,
  DocumentFormProps,
  EntityValidators,
} from '../../src/engine/form/types';
import { inject } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

export async function loadSample(): Promise<{
  definition: EntityFormDefinition;
  texts: Record<Language, TextTree>;
  validators: EntityValidators;
}> {
  const definition = await readJson<EntityFormDefinition>(
    'tests/fixtures/definitions/schemas/sample-permit.schema.json',
  );
  const texts = {} as Record<Language, TextTree>;
  for (const language of ['en', 'fr'] as const) {
    texts[language] = {
      ...(await readJson<TextTree>(`translations/${language}.json`)),
      'sample-permit': await readJson<TextTree>(
        `tests/fixtures/definitions/translations/${language}/sample-permit.json`,
      ),
    };
  }
  // The browser path for real: the module the server generated (global-setup.ts), imported.
  const file = inject('samplePermitValidators');
  const validators = (await import(/* @vite-ignore */ file)) as EntityValidators;
  return { definition, texts, validators };
}

/** The sample definition with one applicant field drawn as `ui` says. */
export async function sampleWithApplicantUi(
  field: string,
  ui: JsonSchema,
): Promise<EntityFormDefinition> {
  const { definition } = await loadSample();
  const applicant = (definition.uiSchema as { applicant: JsonSchema }).applicant;
  return {
    ...definition,
    uiSchema: { ...definition.uiSchema, applicant: { ...applicant, [field]: ui } },
  };
}

export function wrap(node: ReactNode) {
  return <MantineProvider>{node}</MantineProvider>;
}

type Options = Partial<Omit<DocumentFormProps, 'onChange' | 'value'>> & {
  value?: DocumentData;
  onValue?: (value: DocumentData) => void;
};

/** Renders the sample form with its value held in state; returns the handle and the latest value. */
export async function renderSample(options: Options = {}) {
  const sample = await loadSample();
  const handle = createRef<DocumentFormHandle>();
  const current = { value: options.value ?? {} };
  let setLanguage: (language: Language) => void = () => undefined;
  function Host() {
    const [value, setValue] = useState<DocumentData>(current.value);
    const [language, setLang] = useState<Language>(options.language ?? 'en');
    setLanguage = setLang;
    return (
      <DocumentForm
        ref={handle}
        definition={sample.definition}
        texts={sample.texts}
        validators={sample.validators}
        {...options}
        language={language}
        value={value}
        onChange={(next) => {
          current.value = next;
          options.onValue?.(next);
          setValue(next);
        }}
      />
    );
  }
  const view = render(wrap(<Host />));
  return { ...view, handle, current, setLanguage: (l: Language) => setLanguage(l), sample };
}
