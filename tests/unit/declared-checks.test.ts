import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import {
  DEFAULT_TIME_ZONE,
  dayIn,
  declaredProblems,
} from '../../src/core/identity/declared-checks';
import { identityProblems } from '../../src/modules/connectid/portal/registrationChecks';
import { instantAt } from '../support/clock';

const json = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;
/** The definitions and the seed themselves: the checks are read, never copied. */
const account = json<WorkflowDefinition>('workflows/account.json').account!;
const seed = json<Record<string, Array<Record<string, unknown>>>>('seeds/catalogs.json');
const entry = (catalog: string, code: string) => seed[catalog]!.find((e) => e.code === code)!;
const PASSPORT = {
  ...entry('identity-types', 'PASSPORT'),
  code: 'PASSPORT',
  description: 'Passport',
};
const t = (key: string) => key;

afterEach(() => {
  vi.useRealTimers();
});

/**
 * The user type's and identity type's declared checks, one function for the registration page
 * and the server, on one day: the calendar day in the portal's time zone (Pacific/Auckland by
 * default), whatever the zone of the browser or the server's clock.
 */
describe('the declared checks of a registration', () => {
  it.each([8, 23])(
    'passes a passport issued and expiring today in the portal’s zone at %i:00 there, in the browser and the server alike',
    (hour) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(instantAt(DEFAULT_TIME_ZONE, '2026-12-01', hour));
      const today = dayIn(DEFAULT_TIME_ZONE, new Date());
      expect(today).toBe('2026-12-01');
      const document = {
        identityType: 'PASSPORT',
        identityNo: 'PA123456',
        dateOfIssuance: today,
        dateOfExpiry: today,
      };
      // The page's check...
      expect(identityProblems(document, PASSPORT, { account, today }, t)).toEqual([]);
      // ...and the server's (registration-checks.ts), on the same data.
      const data = { identity: document };
      expect(declaredProblems(data, PASSPORT, account.identityType!.checks, today)).toEqual([]);
      // The next day's issue and the previous day's expiry are refused by both.
      const refused = {
        identity: { ...document, dateOfIssuance: '2026-12-02', dateOfExpiry: '2026-11-30' },
      };
      expect(
        declaredProblems(refused, PASSPORT, account.identityType!.checks, today).map((p) => p.rule),
      ).toEqual(['identityIssuedInFuture', 'identityExpired']);
      expect(identityProblems(refused.identity, PASSPORT, { account, today }, t)).toEqual([
        {
          path: '/identity/dateOfIssuance',
          rule: 'identityIssuedInFuture',
          message: 'account.registration.issueInFuture',
        },
        {
          path: '/identity/dateOfExpiry',
          rule: 'identityExpired',
          message: 'account.registration.expired',
        },
      ]);
    },
  );

  it('makes the fields a user type declares mandatory required, and refuses the prohibited ones', () => {
    const checks = account.userType.checks;
    const agent = entry('user-types', 'AGENT');
    expect(declaredProblems({ organisation: {} }, agent, checks).map((p) => p.pointer)).toEqual(
      Object.entries(checks)
        .filter(([check]) => agent[check] === 'MANDATORY')
        .map(([, pointer]) => pointer),
    );
    const individual = entry('user-types', 'INDIVIDUAL');
    const prohibited = Object.entries(checks).find(([check]) => individual[check] === 'PROHIBITED');
    const data = { organisation: { agentNo: 'AG001', traderNo: 'TR001', agencyNo: 'AC001' } };
    expect(declaredProblems(data, individual, checks)).toContainEqual({
      pointer: prohibited![1],
      check: prohibited![0],
      rule: 'prohibited',
    });
  });
});
