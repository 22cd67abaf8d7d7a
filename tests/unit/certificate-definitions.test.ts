import { serverModules } from '../../src/modules/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { DefinitionsError, loadDefinitions } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

// Loading every definition takes seconds on a loaded machine.
describe('texts of a certificate', { timeout: 60_000 }, () => {
  it('refuses a label naming a group of texts, and a heading with no text', async () => {
    const definitions = await copyDefinitions();
    cleanup.push(definitions.remove);
    const workflow = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
    const [first, ...rest] = workflow.certificate!.fields;
    await definitions.write('workflows/visa-application.json', {
      ...workflow,
      certificate: {
        ...workflow.certificate,
        fields: [
          // The label the e-visa used to print as a raw, cut key.
          { ...first, label: 'visa-application.applicant.familyName', section: 'nowhere.heading' },
          ...rest,
        ],
      },
    });
    const error = await loadDefinitions(definitions.dir, serverModules).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionsError);
    const messages = (error as DefinitionsError).problems
      .filter((p) => p.pointer.startsWith('/certificate/'))
      .map((p) => `${p.pointer}: ${p.message}`);
    expect(messages).toEqual([
      ...['en', 'fr'].map(
        (language) =>
          `/certificate/fields/0/label: "visa-application.applicant.familyName" names a group of texts in ${language}, not a text: use "visa-application.applicant.familyName._"`,
      ),
      '/certificate/fields/0/section: no text "nowhere.heading" in en',
      '/certificate/fields/0/section: no text "nowhere.heading" in fr',
    ]);
  });
});
