import { afterEach, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { DefinitionsError, loadDefinitions } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

/**
 * A workflow's `links` and `fires` are checked at load: a slip would otherwise show as an
 * invoice refused, or an application left half-moved, in front of a payer.
 */
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

async function problemsWith(change: (invoice: WorkflowDefinition) => void) {
  const invoice = await readProjectJson<WorkflowDefinition>('workflows/payment-invoice.json');
  change(invoice);
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  await copy.write('workflows/payment-invoice.json', invoice);
  try {
    await loadDefinitions(copy.dir, serverModules);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionsError);
    return (error as DefinitionsError).problems.map((p) => `${p.pointer}: ${p.message}`);
  }
  throw new Error('the definitions were accepted');
}

describe('links between documents, as declared', () => {
  it('refuses an action fired that is not a system action of every linked type', async () => {
    const problems = await problemsWith((invoice) => {
      invoice.actions.verify!.fires = { each: 'grant' };
    });
    expect(problems).toEqual([
      '/actions/verify/fires/each: "grant" is not a system action of "visa-application"',
      '/actions/verify/fires/each: "grant" is not a system action of "sponsor-application"',
    ]);
  });

  it('refuses a value read from the linked data at a field no linked type has', async () => {
    const problems = await problemsWith((invoice) => {
      invoice.links!.fill = {
        ...invoice.links!.fill,
        payer: { data: ['/applicant/givenName /applicant/surname', '/organisation/companyName'] },
      };
    });
    expect(problems).toEqual([
      '/links/fill/payer/data/0: no linked type has a field "/applicant/surname"',
    ]);
  });

  it("refuses a screen's prefill from a profile field the account lacks", async () => {
    const problems = await problemsWith((invoice) => {
      invoice.screens[0]!.prefill = {
        ...invoice.screens[0]!.prefill,
        '/payer/address/city': { profile: '/addresses/0/town' },
      };
    });
    expect(problems).toEqual([
      '/screens/0/prefill/payer~1address~1city: no field "/addresses/0/town" in the profile ("account")',
    ]);
  });

  it('refuses item fields the schema lacks, an unknown type and a missing note', async () => {
    const problems = await problemsWith((invoice) => {
      const links = invoice.links!;
      links.number = 'applicationNumber';
      links.fill = { ...links.fill, order: 'number' };
      links.types = [...links.types, 'passport-application'];
      links.note = 'payment-invoice.history.nothing';
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        '/links/number: the items of "/items" have no field "applicationNumber"',
        '/links/fill/order: the items of "/items" have no field "order"',
        '/links/types/2: no workflow "passport-application" in an enabled module',
        '/links/note: no text "payment-invoice.history.nothing" in en',
        '/links/note: no text "payment-invoice.history.nothing" in fr',
      ]),
    );
  });

  it('refuses fires without links', async () => {
    const problems = await problemsWith((invoice) => {
      delete invoice.links;
      delete invoice.derive;
    });
    expect(problems).toContain(
      '/actions/create/fires: the workflow declares no `links` to fire actions on',
    );
  });
});
