import { createRef, useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DocumentForm } from '../../src/engine/form/DocumentForm';
import type { DocumentData, DocumentFormHandle } from '../../src/engine/form/types';
import { widgetsWith, type EngineWidgetProps } from '../../src/engine/form/widgets';
import { defineModule, EngineModulesProvider } from '../../src/engine/module';
import { loadSample, wrap } from './harness';

/** A module's own widget: a button that stamps the field. */
function StampWidget(props: EngineWidgetProps) {
  return (
    <button type="button" onClick={() => props.onChange('STAMPED')}>
      Stamp {String(props.value ?? '')}
    </button>
  );
}

const stampModule = defineModule({ id: 'stamp', widgets: { stamp: StampWidget } });

/**
 * A portal module's widget reaches the form engine only as a `defineModule` value given to
 * `EngineModulesProvider` (what src/portal/main.tsx does with src/modules/portal.ts): a schema
 * naming it by `ui:widget` is drawn with it.
 */
describe('widgets of a portal module', () => {
  it('draws a field with the module’s widget and keeps what it gives', async () => {
    const sample = await loadSample();
    const applicantUi = (sample.definition.uiSchema?.applicant ?? {}) as Record<string, unknown>;
    const definition = {
      ...sample.definition,
      uiSchema: {
        ...sample.definition.uiSchema,
        applicant: { ...applicantUi, familyName: { 'ui:widget': 'stamp' } },
      },
    };
    const current: { value: DocumentData } = { value: {} };
    function Host() {
      const [value, setValue] = useState<DocumentData>({});
      return (
        <EngineModulesProvider modules={[stampModule]}>
          <DocumentForm
            ref={createRef<DocumentFormHandle>()}
            definition={definition}
            texts={sample.texts}
            validators={sample.validators}
            language="en"
            value={value}
            onChange={(next) => {
              current.value = next;
              setValue(next);
            }}
          />
        </EngineModulesProvider>
      );
    }
    render(wrap(<Host />));
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Stamp/ }));
    expect((current.value.applicant as Record<string, unknown>).familyName).toBe('STAMPED');
    expect(await screen.findByRole('button', { name: 'Stamp STAMPED' })).toBeTruthy();
  });

  it('refuses a module widget named like the engine’s, naming the module', () => {
    expect(() =>
      widgetsWith([defineModule({ id: 'clash', widgets: { date: StampWidget } })]),
    ).toThrow('module clash: widget "date" is already defined');
  });
});
