/**
 * Writes a published version of the definitions back to a folder, as the repository holds them
 * (the studio publishes to the database; the repository's files stay the developers' source):
 *
 *   npm run -s definitions:export -- <folder> [version]
 *
 * The newest version unless one is named. PORTAL_URL (default http://localhost:8080) and
 * PORTAL_TOKEN, an access token of a holder of definitions-edit or definitions-publish
 * (`npm run -s token -- <login> <password>`). Then `npm run check:definitions` with
 * DEFINITIONS_DIR=<folder> checks the result, and a diff against the repository shows the
 * changes to commit.
 */
import { writeDefinitionFiles } from '../src/server/definitions/files';

interface SetAnswer {
  version: number;
  note: string;
  publishedBy: string;
  files?: Record<string, string>;
}

const [folder, wanted] = process.argv.slice(2);
const portal = process.env.PORTAL_URL ?? 'http://localhost:8080';
const token = process.env.PORTAL_TOKEN;
if (!folder || !token || (wanted !== undefined && !/^[1-9][0-9]*$/.test(wanted))) {
  process.stderr.write(
    'usage: PORTAL_TOKEN=<access token> npm run -s definitions:export -- <folder> [version]\n',
  );
  process.exit(2);
}

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${portal}/api/definitions/sets${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => ({}))) as T & { error?: { message: string } };
  if (!response.ok) {
    process.stderr.write(`${response.status}: ${body.error?.message ?? response.statusText}\n`);
    process.exit(1);
  }
  return body;
}

const version =
  wanted ?? String((await get<{ versions: SetAnswer[] }>('')).versions[0]?.version ?? 1);
const set = await get<SetAnswer>(`/${version}`);
await writeDefinitionFiles(new Map(Object.entries(set.files ?? {})), folder);
process.stdout.write(
  `Version ${set.version} (${set.note}, by ${set.publishedBy}): ${Object.keys(set.files ?? {}).length} files written to ${folder}\n`,
);
