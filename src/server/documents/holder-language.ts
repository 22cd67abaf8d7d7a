import type { WorkflowDefinition } from '../../core/documents/workflow';
import { LANGUAGES, type Language } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import type { AccountLookup } from './effect-context';
import { UUID } from '../db/ids';
import { findDocument, type Queryable } from './store/rows';

const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value);

/** The holder's language: chosen on the document (`holderLanguage`), else the account's, or en. */
export async function holderLanguageOf(
  db: Queryable,
  accounts: AccountLookup | undefined,
  workflow: Pick<WorkflowDefinition, 'holderLanguage'>,
  document: { owner: string; data: Record<string, unknown> },
): Promise<Language> {
  const chosen = workflow.holderLanguage
    ? resolvePointer(document.data, workflow.holderLanguage)
    : undefined;
  if (isLanguage(chosen)) return chosen;
  if (!accounts?.language || !UUID.test(document.owner)) return 'en';
  const account = await findDocument(db, accounts.type, document.owner);
  const preferred = account ? resolvePointer(account.data, accounts.language) : undefined;
  return isLanguage(preferred) ? preferred : 'en';
}
