/** Delegated access (docs/delegation.md): a holder lets another person act on their documents. */
import { dataPointer, identifier, some, strict, textKey, Type, type Static } from './kit';

/** One grant a holder may give: a name, its label, and the owner actions it lets a delegate take. */
export const DelegationGrant = strict({
  id: identifier,
  label: textKey,
  /** Owner actions of the workflow (never system ones): what the delegate may take for the holder. */
  actions: some(Type.String({ pattern: '^[a-z][a-zA-Z-]*$' }), { uniqueItems: true }),
});
export type DelegationGrant = Static<typeof DelegationGrant>;

/**
 * The holder of a document may name another person (by sign-in name or e-mail) who may read it
 * and take the granted owner actions on it; `holderOnly` is what the holder alone may change
 * (what they declare themselves). `maxDays`: how long a delegation may run at most.
 */
export const WorkflowDelegation = strict({
  grants: some(DelegationGrant),
  holderOnly: Type.Array(dataPointer, { uniqueItems: true }),
  maxDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660 })),
});
export type WorkflowDelegation = Static<typeof WorkflowDelegation>;
