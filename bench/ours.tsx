import { useState } from 'react';
import { Container } from '@mantine/core';
import { DocumentForm, entityValidators } from '../src/engine/form';
import type { DocumentData, ValidatorSource } from '../src/engine/form';
import { BENCH_SECTION, definition, renderBench, texts } from './shared';

/**
 * Our engine: DocumentForm with the visa application definition, its texts, and the validator
 * modules that compileValidators generated (written into dist/bench/validators by the script and
 * imported at run time, as the portal imports them from the server): the open section's first
 * (ours.html starts it with the page's script, as the portal's router does with the page's
 * code), the whole document's after the first paint.
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

renderBench(
  <OursForm validators={entityValidators(definition.id, '/validators')} />,
  `[id="root.${BENCH_SECTION}.familyName"]`,
);
