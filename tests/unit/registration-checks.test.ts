import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import {
  NO_VALUES,
  registrationProblems,
} from '../../src/modules/connectid/portal/registrationChecks';

const json = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;
/** The definitions and the seed themselves: the page's checks read them, never copies. */
const account = json<WorkflowDefinition>('workflows/account.json').account!;
const { schema } = json<{ schema: Record<string, never> }>('schemas/account.schema.json');
const seed = json<Record<string, Array<Record<string, unknown>>>>('seeds/catalogs.json');
const AGENT = {
  ...seed['user-types']!.find((entry) => entry.code === 'AGENT')!,
  code: 'AGENT',
  description: 'Agent',
};
const options = { userTypes: [AGENT], identityTypes: [] };
const t = (key: string, params?: Record<string, unknown>) =>
  params?.limit === undefined ? key : `${key} ${String(params.limit)}`;

describe('the registration page’s checks', () => {
  it('read the patterns, formats and lengths of the account schema and the type’s declared checks', () => {
    const values = {
      ...NO_VALUES,
      loginIdentifier: 'Losa Fono',
      firstName: 'L'.repeat(71),
      lastName: 'Fono',
      emailAddress: 'losa.example.org',
      primaryMobileNo: 'call me',
      userType: 'AGENT',
      institution: 'I'.repeat(101),
      postalCode: '#1',
    };
    const declared = { account, today: '2026-12-01', schema };
    expect(
      registrationProblems(values, options, declared, t, 'agentNo').map((p) => [p.path, p.message]),
    ).toEqual([
      ['/identity/loginIdentifier', 'register.errors.loginIdentifier'],
      ['/identity/firstName', 'validation.maxLength 70'],
      ['/contact/emailAddress', 'validation.format_email'],
      ['/contact/primaryMobileNo', 'validation.mobileNumber'],
      ['/organisation/institution', 'validation.maxLength 100'],
      // The agent code is MANDATORY for an agent, and so is an address, checked whole.
      ['/organisation/agentNo', 'validation.required'],
      ['/addresses/0/addressType', 'validation.required'],
      ['/addresses/0/addressLine1', 'validation.required'],
      ['/addresses/0/city', 'validation.required'],
      ['/addresses/0/postalCode', 'validation.pattern'],
      ['/addresses/0/country', 'validation.required'],
    ]);
  });
});
