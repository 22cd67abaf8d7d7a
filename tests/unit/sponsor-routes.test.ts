import { serverModules } from '../../src/modules/server';
import { describe, expect, it } from 'vitest';
import { portalRoutes } from '../../src/core/definitions/routes';
import { loadDefinitions } from '../../src/server/definitions/load';

/** The sponsor route table of specification 000, section 2, and its queue: route -> role suffixes. */
const SPECIFIED: Record<string, string[]> = {
  '': ['search'],
  '/submitted': ['submitted'],
  '/granted': ['granted'],
  '/creation': ['create'],
  '/new': ['submit'],
  '/view/:id': ['read'],
  '/version/:id/:ver': ['read'],
  '/edit/:id': ['update'],
  '/submission/:id': ['submit'],
  '/replytoquery/:id': ['submit'],
  '/verification/:id': ['grant', 'reject', 'query'],
  '/confirmation/:id': ['pay'],
  '/initiate/:id': ['pay'],
  '/error/:id': ['pay'],
  '/commit/:id': ['pay'],
  '/purchase/:id': ['pay'],
  '/print/:id': ['receipt'],
  '/proceed/:id': ['purchase'],
  '/modification/:id': ['modify'],
  '/change/:id': ['change'],
  '/cancellation/:id': ['cancel'],
  '/undo/:id': ['undo'],
  '/deletion/:id': ['delete'],
  '/drop': ['submit'],
  // Not in the specification: the verifying officers' queue (issue 37), as the visa has.
  '/verificationlist': ['grant', 'reject', 'query'],
  // And the refunds waiting for approval (docs/payments.md, "Refunds").
  '/refunds/approvals': ['refund'],
  // And the officers' suspension, reinstatement and revocation (docs/sponsor.md).
  '/standing/:id': ['grant'],
};

describe('the sponsor routes', () => {
  it('are the 24 routes of the specification, the verification queue, the refunds to approve and the standing screen, each with its roles', async () => {
    const routes = portalRoutes(await loadDefinitions('.', serverModules));
    const sponsor = Object.fromEntries(
      routes
        .filter((r) => r.path.startsWith('/sponsor/application'))
        .map((r) => [r.path.slice('/sponsor/application'.length), [...r.roles].sort()]),
    );
    const expected = Object.fromEntries(
      Object.entries(SPECIFIED).map(([path, roles]) => [
        path,
        roles.map((role) => `sponsor-application-${role}`).sort(),
      ]),
    );
    expect(sponsor).toEqual(expected);
  });
});
