import { serverModules } from '../../src/modules/server';
import { describe, expect, it } from 'vitest';
import { portalRoutes } from '../../src/core/definitions/routes';
import { loadDefinitions } from '../../src/server/definitions/load';

/** The visa route table of specification 000, section 2: route -> role suffixes. */
const SPECIFIED: Record<string, string[]> = {
  '': ['search'],
  '/submitted': ['submitted'],
  '/granted': ['granted'],
  '/mylist': ['forward'],
  '/assignable': ['assign'],
  '/assigned': ['assign'],
  '/validationlist': ['issue', 'backward', 'escalate'],
  '/approvallist': ['approve', 'return'],
  '/new': ['submit'],
  '/drop': ['submit'],
  '/view/:id': ['read'],
  '/version/:id/:ver': ['read'],
  '/edit/:id': ['update'],
  '/submission/:id': ['submit'],
  '/replytoquery/:id': ['submit'],
  '/amendment/:id': ['submit'],
  '/verification/:id': ['grant', 'reject', 'query', 'forward'],
  '/assignment/:id': ['assign'],
  '/validation/:id': ['issue', 'backward', 'escalate'],
  '/confirmation/:id': ['pay'],
  '/error/:id': ['pay'],
  '/commit/:id': ['pay'],
  '/purchase/:id': ['pay'],
  '/initiate/:id': ['pay'],
  '/proceed/:id': ['purchase'],
  '/finalisation/:id': ['finalise'],
  '/approval/:id': ['approve', 'return'],
  '/dispatch/:id': ['dispatch'],
  '/print/:id': ['print'],
  '/modification/:id': ['modify'],
  '/cancellation/:id': ['cancel'],
  '/undo/:id': ['undo'],
  '/deletion/:id': ['delete'],
  // Ours beside the specification's: the team view (`workload`), for those who assign.
  '/workload': ['assign'],
  // And the refunds waiting for approval (docs/payments.md, "Refunds").
  '/refunds/approvals': ['refund'],
};

describe('the visa routes', () => {
  it('are the routes of the specification, each with exactly its roles', async () => {
    const routes = portalRoutes(await loadDefinitions('.', serverModules));
    const visa = Object.fromEntries(
      routes
        .filter((r) => r.path.startsWith('/visa/application'))
        .map((r) => [r.path.slice('/visa/application'.length), [...r.roles].sort()]),
    );
    const expected = Object.fromEntries(
      Object.entries(SPECIFIED).map(([path, roles]) => [
        path,
        roles.map((role) => `visa-application-${role}`).sort(),
      ]),
    );
    expect(visa).toEqual(expected);
  });
});
