import type {
  AccessUnitDeclaration,
  AccountDeclaration,
  PasswordPolicyDeclaration,
  RecordKey,
  UserGroupDeclaration,
} from '../../../core/documents/record-declarations';
import type { WorkflowDefinition } from '../../../core/documents/workflow';

/** A declaration with the document type that made it and that type's key. */
export type Declared<D> = D & { type: string; key: RecordKey };

/** The account as the identity server reads it, with where its holder's language is. */
export type DeclaredAccount = Declared<AccountDeclaration> & { language?: string };

/**
 * What the connectid code knows of the records: each type's key, and the types declaring
 * themselves accounts, user groups, password policies and access units (docs/identity.md). A
 * type left out (its module off) is undefined: the directory then finds nothing of it.
 */
export interface RecordDeclarations {
  /** The key of every type declaring one, by type. */
  keys: ReadonlyMap<string, RecordKey>;
  account?: DeclaredAccount;
  userGroup?: Declared<UserGroupDeclaration>;
  passwordPolicy?: Declared<PasswordPolicyDeclaration>;
  accessUnit?: Declared<AccessUnitDeclaration>;
}

/** Gathers the declarations of the loaded workflows; two types declaring one role is an error. */
export function recordDeclarations(workflows: readonly WorkflowDefinition[]): RecordDeclarations {
  const keys = new Map<string, RecordKey>();
  for (const workflow of workflows) if (workflow.key) keys.set(workflow.document, workflow.key);
  const one = <K extends 'account' | 'userGroup' | 'passwordPolicy' | 'accessUnit'>(name: K) => {
    const declaring = workflows.filter((w) => w[name] !== undefined && w.key !== undefined);
    if (declaring.length > 1)
      throw new Error(`workflows ${declaring.map((w) => w.id).join(', ')} all declare "${name}"`);
    const workflow = declaring[0];
    if (!workflow) return undefined;
    return {
      ...(workflow[name] as NonNullable<WorkflowDefinition[K]>),
      type: workflow.document,
      key: workflow.key as RecordKey,
    };
  };
  const account = one('account');
  const accountWorkflow = workflows.find((w) => w.account !== undefined);
  return {
    keys,
    account: account && { ...account, language: accountWorkflow?.holderLanguage },
    userGroup: one('userGroup'),
    passwordPolicy: one('passwordPolicy'),
    accessUnit: one('accessUnit'),
  };
}
