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

describe('people of a list holding certificates of their own', { timeout: 60_000 }, () => {
  it('refuses holders and fields whose pointers name nothing, and holders nobody is charged for', async () => {
    const definitions = await copyDefinitions();
    cleanup.push(definitions.remove);
    const workflow = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
    const certificate = workflow.certificate!;
    const [first, ...rest] = certificate.fields;
    await definitions.write('workflows/visa-application.json', {
      ...workflow,
      verification: { ...workflow.verification!, number: '/header/nowhere' },
      certificate: {
        ...certificate,
        fields: [
          { ...first!, holder: '/surname' },
          { ...rest[0]!, lines: ['/street'] },
          ...rest.slice(1),
        ],
        holders: {
          ...certificate.holders!,
          number: '/evisa',
          secondFactors: ['/passportNumber', '/shoeSize'],
        },
      },
      // Nobody charged per dependant any more: `charged` would give nobody a visa.
      payment: {
        ...workflow.payment!,
        sources: workflow.payment!.sources.map(({ payers, ...source }) =>
          payers ? { ...source, payers: { ...payers, people: [] } } : source,
        ),
      },
    });
    const error = await loadDefinitions(definitions.dir, serverModules).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionsError);
    const messages = (error as DefinitionsError).problems
      .filter((p) => /^\/(certificate|verification)\//.test(p.pointer))
      .map((p) => `${p.pointer}: ${p.message}`);
    expect(messages.sort()).toEqual(
      [
        '/verification/number: no field "/header/nowhere" in the document\'s schema',
        '/certificate/holders/charged: no payment source charges the people of "/dependants" (payers.people)',
        '/certificate/holders/number: no field "/evisa" in the items of "/dependants"',
        '/certificate/holders/secondFactors/1: no field "/shoeSize" in the items of "/dependants"',
        '/certificate/fields/0/holder: no field "/surname" in the items of "/dependants"',
        '/certificate/fields/1/lines/0: no field "/street" in "/applicant/givenName"',
      ].sort(),
    );
  });

  it('refuses a holder field without holders to print it for', async () => {
    const definitions = await copyDefinitions();
    cleanup.push(definitions.remove);
    const workflow = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
    const { holders: _holders, ...certificate } = workflow.certificate!;
    await definitions.write('workflows/visa-application.json', { ...workflow, certificate });
    const error = await loadDefinitions(definitions.dir, serverModules).catch((e: unknown) => e);
    expect(
      (error as DefinitionsError).problems
        .filter((p) => p.pointer.startsWith('/certificate/'))
        .map((p) => `${p.pointer}: ${p.message}`),
    ).toEqual(
      [0, 1, 2, 3, 4].map(
        (i) => `/certificate/fields/${i}/holder: no "holders" in the certificate to print it for`,
      ),
    );
  });
});
