import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { PROJECT_ROOT } from '../config';
import type { Principal } from '../auth/principal';
import type { DemoAccount } from '../module';
import type { Database } from '../db/schema';
import type { DocumentService } from './service';
import type { DocumentView } from '../../core/documents/types';
import { holderContacts, ownsDocumentOfType } from './store/lookups';

/** The business data of the demo documents: seeds/demo-documents.json (kept out of src/). */
export const DEMO_DOCUMENTS_FILE = path.join(PROJECT_ROOT, 'seeds', 'demo-documents.json');

interface DemoStep {
  action: string;
  /** `officer`: an officer of the immigration service takes it; else the persona. */
  by?: 'officer';
  notes?: string;
  data?: unknown;
}

interface DemoDocument {
  type: string;
  persona: string;
  steps: DemoStep[];
}

/** `{ "$daysFromToday": n }` anywhere in the data becomes that day as `YYYY-MM-DD`. */
function resolveDates(value: unknown, today: Date): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveDates(v, today));
  if (typeof value !== 'object' || value === null) return value;
  const days = (value as { $daysFromToday?: unknown }).$daysFromToday;
  if (typeof days === 'number') {
    return new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  }
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, resolveDates(v, today)]));
}

/**
 * Writes the demo documents through the document service as their personas and officers; a
 * persona who already has one of the type keeps it. Returns the numbers written now.
 */
export async function seedDemoDocuments(
  db: Kysely<Database>,
  documents: DocumentService,
  accounts: readonly DemoAccount[],
  file: string = DEMO_DOCUMENTS_FILE,
): Promise<string[]> {
  const seed = JSON.parse(await fs.readFile(file, 'utf8')) as { documents: DemoDocument[] };
  const written: string[] = [];
  for (const demo of seed.documents) {
    const account = accounts.find((a) => a.persona === demo.persona);
    if (!account) continue;
    if (await ownsDocumentOfType(db, demo.type, account.id)) continue;
    const workflow = documents.workflow(demo.type).definition;
    const everyRole = [...new Set(Object.values(workflow.actions).flatMap((a) => a.roles))].map(
      (role) => `${workflow.rolePrefix}${role}`,
    );
    // As the persona's token names them: the holder's name and contacts (greetings, receipts).
    const [holder] = await holderContacts(db, [account.id]);
    const owner: Principal = {
      subject: account.id,
      roles: everyRole,
      preferredUsername: account.loginIdentifier,
      ...(holder?.owner_name ? { name: holder.owner_name } : {}),
      ...(holder?.owner_email ? { email: holder.owner_email } : {}),
      ...(holder?.owner_mobile ? { phoneNumber: holder.owner_mobile } : {}),
    };
    // Named as the service's own actors are (`system:<part>`), so each reader sees it in their language.
    const officer: Principal = {
      subject: 'system',
      roles: everyRole,
      name: 'system:immigration-service',
    };
    const today = new Date();
    let current: DocumentView | undefined;
    for (const step of demo.steps) {
      const principal = step.by === 'officer' ? officer : owner;
      // A step that brings no data and takes a form resends the document as it stands.
      const sendsData = workflow.actions[step.action]?.payload === 'data';
      const data =
        step.data !== undefined
          ? resolveDates(step.data, today)
          : sendsData
            ? current?.data
            : undefined;
      const body = {
        ...(data === undefined ? {} : { data }),
        ...(step.notes ? { notes: step.notes } : {}),
      };
      current = current
        ? await documents.act(demo.type, principal, current.id, step.action, {
            version: current.version,
            ...body,
          })
        : await documents.create(demo.type, principal, { action: step.action, ...body });
    }
    if (current?.number) written.push(current.number);
  }
  return written;
}
