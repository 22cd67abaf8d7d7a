import { createRef, useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DocumentForm } from '../../src/engine/form/DocumentForm';
import type { DocumentData, DocumentFormHandle } from '../../src/engine/form/types';
import { widgetsWith, type EngineWidgetProps } from '../../src/engine/form/widgets';
import type { ApiClient } from '../../src/core/api/client';
import type { DocumentView } from '../../src/core/documents/types';
import {
  defineModule,
  EngineModulesProvider,
  ModulePanels,
  type ScreenPanelProps,
} from '../../src/engine/module';
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

/** A module's own screen panel: what it is given, shown. */
function StampPanel({ document }: ScreenPanelProps) {
  return <section aria-label="Stamp panel">Stamping {document.id}</section>;
}

/**
 * A screen's `panels` reach a module's panel only through the same provider: each name is drawn
 * by the module giving it, with the document; a name no module gives (its module off) draws
 * nothing.
 */
describe('screen panels of a portal module', () => {
  it('draws the panels a screen names and nothing for an unknown name', () => {
    const panelModule = defineModule({ id: 'stamp', panels: { stamp: StampPanel } });
    const document = { id: 'doc-1' } as DocumentView;
    render(
      wrap(
        <EngineModulesProvider modules={[panelModule]}>
          <ModulePanels names={['stamp', 'unknown']} document={document} api={{} as ApiClient} />
        </EngineModulesProvider>,
      ),
    );
    expect(screen.getByRole('region', { name: 'Stamp panel' }).textContent).toBe('Stamping doc-1');
    expect(screen.getAllByRole('region')).toHaveLength(1);
  });
});
