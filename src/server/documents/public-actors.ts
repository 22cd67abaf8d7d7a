import { holdsAnyRole, type Principal } from '../auth/principal';
import type { CompiledWorkflow } from './workflows';

/* Who the public reads as an author: others' lines as the service's, or OFFICER_NAMES_TO_PUBLIC. */

/** The service as an author: the portal shows it as the text `actors.immigration-service`. */
export const SERVICE_ACTOR = 'system:immigration-service';

/** Names the service's own actors are recorded under (`system`, `system:payment-gateway`...). */
const SYSTEM_NAME = /^system(?::[a-z-]+)?$/;

/** What one reader may read of the authors of a document's lines. */
export interface AuthorPolicy {
  /** An officer of the type: every author as recorded. */
  officer: boolean;
  /** The reader, whose own lines are theirs to read whole. */
  subject: string;
  /** The reader's name as their own lines record it. */
  name: string;
  /** OFFICER_NAMES_TO_PUBLIC: others' names are kept (their contacts never). */
  officerNames: boolean;
}

export function authorPolicy(
  workflow: CompiledWorkflow,
  principal: Principal,
  officerNames = false,
): AuthorPolicy {
  return {
    officer: holdsAnyRole(principal, workflow.seeAllRoles),
    subject: principal.subject,
    name: principal.name ?? principal.preferredUsername ?? principal.subject,
    officerNames,
  };
}

/** A recorded name (created by, a version's author) as the reader may read it. */
export function authorName(name: string, policy: AuthorPolicy): string {
  if (policy.officer || policy.officerNames || name === policy.name || SYSTEM_NAME.test(name))
    return name;
  return SERVICE_ACTOR;
}

/** A history row's author (subject, name and contacts) as the reader may read it. */
export function authorOfLine<
  Row extends {
    actor: string;
    actor_name: string;
    actor_email: string | null;
    actor_mobile: string | null;
    on_behalf_of?: string | null;
  },
>(row: Row, policy: AuthorPolicy): Row {
  if (policy.officer || row.actor === policy.subject) return row;
  // The holder reads the name of the delegate they chose, not the delegate's contacts.
  if (row.on_behalf_of === policy.subject) return { ...row, actor_email: null, actor_mobile: null };
  const name =
    policy.officerNames || SYSTEM_NAME.test(row.actor_name) ? row.actor_name : SERVICE_ACTOR;
  return { ...row, actor_name: name, actor_email: null, actor_mobile: null };
}
