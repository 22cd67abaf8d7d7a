import { useState } from 'react';
import { Container } from '@mantine/core';
import { DocumentForm, loadEntityValidators } from '../src/engine/form';
import type { DocumentData, EntityValidators } from '../src/engine/form';
import { BENCH_SECTION, definition, renderBench, texts } from './shared';

/**
 * Our engine: DocumentForm with the visa application definition, its texts, and the validator
 * module that compileValidators generated (written into dist/bench/validators by the script and
 * imported at run time, as the portal imports it from the server).
 */
function OursForm({ validators }: { validators: EntityValidators }) {
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

const validators = await loadEntityValidators(`/validators/${definition.id}.js`);
renderBench(<OursForm validators={validators} />);
