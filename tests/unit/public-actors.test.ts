import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config';
import {
  authorName,
  authorOfLine,
  authorPolicy,
  SERVICE_ACTOR,
} from '../../src/server/documents/public-actors';
import type { CompiledWorkflow } from '../../src/server/documents/workflows';

/**
 * What a reader reads of who wrote a document's lines (src/server/documents/public-actors.ts):
 * officers of the type read every author as recorded; anyone else reads their own lines whole
 * and the service for everyone else's, with no contacts, or with OFFICER_NAMES_TO_PUBLIC the
 * officer's name and still no contacts.
 */
const workflow = { seeAllRoles: ['visa-application-search'] } as CompiledWorkflow;
const applicant = {
  subject: 'applicant-id',
  roles: ['visa-application-submit'],
  name: 'Ana Tuilagi',
};
const officer = {
  subject: 'validator-id',
  roles: ['visa-application-search'],
  name: 'Losa Validator',
};

const byVerifier = {
  actor: 'verifier-id',
  actor_name: 'Tavita Verifier',
  actor_email: 'verifier@immigration.example',
  actor_mobile: '+685 7210005',
  notes: 'Please send a clearer scan',
};
const byApplicant = {
  actor: 'applicant-id',
  actor_name: 'Ana Tuilagi',
  actor_email: 'applicant@demo.immigration.example',
  actor_mobile: '+685 7210001',
  notes: null,
};
// A system action fired on behalf of an officer (an invoice settling the application).
const firedByVerifier = { ...byVerifier, actor: 'system:payment-invoice' };
const byGateway = {
  actor: 'system:payment-gateway',
  actor_name: 'system:payment-gateway',
  actor_email: null,
  actor_mobile: null,
  notes: null,
};

describe('authors as the public reads them', () => {
  it('gives the public the service for others, without contacts, and their own lines whole', () => {
    const policy = authorPolicy(workflow, applicant);
    expect(policy.officer).toBe(false);
    expect(authorOfLine(byVerifier, policy)).toEqual({
      ...byVerifier,
      actor_name: SERVICE_ACTOR,
      actor_email: null,
      actor_mobile: null,
    });
    expect(authorOfLine(firedByVerifier, policy)).toMatchObject({
      actor_name: SERVICE_ACTOR,
      actor_email: null,
      actor_mobile: null,
    });
    expect(authorOfLine(byApplicant, policy)).toEqual(byApplicant);
    // The service's own actors keep their names (shown as words by the portal).
    expect(authorOfLine(byGateway, policy)).toEqual(byGateway);
    expect(authorName('Tavita Verifier', policy)).toBe(SERVICE_ACTOR);
    expect(authorName('Ana Tuilagi', policy)).toBe('Ana Tuilagi');
    expect(authorName('system:payment-gateway', policy)).toBe('system:payment-gateway');
  });

  it('gives officers every author as recorded', () => {
    const policy = authorPolicy(workflow, officer);
    expect(authorOfLine(byVerifier, policy)).toEqual(byVerifier);
    expect(authorOfLine(byApplicant, policy)).toEqual(byApplicant);
    expect(authorName('Tavita Verifier', policy)).toBe('Tavita Verifier');
  });

  it('names officers to the public with OFFICER_NAMES_TO_PUBLIC, never their contacts', () => {
    expect(configFromEnv({}).officerNamesToPublic).toBe(false);
    const named = configFromEnv({ OFFICER_NAMES_TO_PUBLIC: 'true' }).officerNamesToPublic;
    expect(named).toBe(true);
    const policy = authorPolicy(workflow, applicant, named);
    expect(authorOfLine(byVerifier, policy)).toEqual({
      ...byVerifier,
      actor_email: null,
      actor_mobile: null,
    });
    expect(authorName('Tavita Verifier', policy)).toBe('Tavita Verifier');
  });
});
