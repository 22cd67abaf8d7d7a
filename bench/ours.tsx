import { useState } from 'react';
import { Container } from '@mantine/core';
import { DocumentForm, entityValidators } from '../src/engine/form';
import type { DocumentData, ValidatorSource } from '../src/engine/form';
import { BENCH_SECTION, definition, renderBench, texts } from './shared';

/**
 * Our engine: DocumentForm with the visa application definition, its texts, and the validator
 * modules that compileValidators generated (written into dist/bench/validators by the script and
 * imported at run time, as the portal imports them from the server): the open section's first,
 * the whole document's after the first paint.
 *
 * The page renders once the open section's module is in, as in the portal: its router imports
 * that module alongside the page's code (a lazy chunk ten times its size), so the form's first
 * render finds it there. ours.html fetches it with the page's script; rendering before it is
 * imported would measure a second render of the section that the portal does not do.
 */
function OursForm({ validators }: { validators: ValidatorSource }) {
  const [value, setValue] = useState<DocumentData>({});
  return (
    <Container size="lg" py="md">
      <DocumentForm
        definition={definition}
        texts={texts}
        language="en"
        value={value}
        onChange={setValue}
        validators={validators}
        initialSection={BENCH_SECTION}
      />
    </Container>
  );
}

const validators = entityValidators(definition.id, '/validators');
// A module that fails to load is an unhandled rejection, which instrument.ts records.
void validators
  .loadSection(BENCH_SECTION)
  .then(() =>
    renderBench(<OursForm validators={validators} />, `[id="root.${BENCH_SECTION}.familyName"]`),
  );
