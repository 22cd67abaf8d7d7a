import type { FastifyInstance } from 'fastify';
import { PROBLEM_RESPONSES } from '../api-contract/common';
import type { AuditLog } from '../audit/log';
import { requestOrigin } from '../audit/log';
import { requireSignedIn } from '../auth/plugin';
import { requestLanguage } from '../http/language';
import { buildArchive, type ArchiveSources } from './archive';

export interface AccountDataOptions extends ArchiveSources {
  audit: AuditLog;
  /** The time the archive says it was made (a test's controllable clock). */
  clock?: () => Date;
}

/**
 * The signed-in person's own data (docs/identity.md, "My data and closing an account"): one
 * archive of everything they hold. Closing the account is an action of the account workflow.
 */
export async function accountDataPlugin(app: FastifyInstance, options: AccountDataOptions) {
  const file = { schema: { type: 'string', format: 'binary' } };
  const schema = {
    tags: ['account'],
    summary: 'The signed-in person’s own data as one ZIP archive (JSON and their files)',
    response: {
      200: {
        description: 'account.json, documents/, messages.json, uploads/ and README.txt',
        content: { 'application/zip': file },
      },
      ...PROBLEM_RESPONSES,
    },
  };
  app.get('/archive', { schema }, async (request, reply) => {
    const principal = requireSignedIn(request);
    const now = options.clock?.() ?? new Date();
    const { zip, summary } = await buildArchive(options, principal, requestLanguage(request), now);
    // An export of personal data: recorded before it leaves, whatever happens to the download.
    await options.audit.recordNow([
      {
        ...requestOrigin(request, principal),
        kind: 'export',
        action: 'archive.download',
        target: principal.subject,
        detail: { ...summary, bytes: zip.byteLength },
      },
    ]);
    const day = now.toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="my-data-${day}.zip"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  });
}
