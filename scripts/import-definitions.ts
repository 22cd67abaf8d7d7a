/**
 * Publishes a folder of definitions (one `definitions:export` wrote from another environment,
 * or the repository's) as the newest version of this environment's database:
 *
 *   npm run -s definitions:import -- <folder> --note "<why>" [--by <name>]
 *
 * Checked as a publish from the studio is: refused with every problem listed, nothing changed
 * (exit 1). The database is the server's: DATABASE_URL (and DATABASE_SCHEMA) for PostgreSQL,
 * where running servers switch to the new version at once; otherwise DATA_DIR's embedded
 * database, which one process opens at a time: stop the server first. `--by` names who
 * imports (default "deployment").
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverModules } from '../src/modules/server';
import { configFromEnv } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { readDefinitionFiles } from '../src/server/definitions/files';
import { checkDefinitions, DefinitionsError } from '../src/server/definitions/load';
import { publishDefinitions } from '../src/server/definitions/publish';
import { DEPLOYMENT, filesDigest, newestSet, StaleSetError } from '../src/server/definitions/sets';

const USAGE = 'usage: npm run -s definitions:import -- <folder> --note "<why>" [--by <name>]\n';

function fail(message: string, code = 1): never {
  process.stderr.write(message);
  process.exit(code);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { note: { type: 'string' }, by: { type: 'string' } },
  });
}
try {
  parsed = parse();
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`, 2);
}
const [folderArgument] = parsed.positionals;
const note = parsed.values.note?.trim();
const by = parsed.values.by?.trim() || DEPLOYMENT;
if (!folderArgument || parsed.positionals.length > 1 || !note) fail(USAGE, 2);
if (note.length > 500) fail('the note is longer than 500 characters\n', 2);

const folder = path.resolve(folderArgument);
const files = await readDefinitionFiles(folder);
if (files.size === 0) fail(`${folder} holds no definition files\n`);

const config = configFromEnv(process.env);
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  schema: config.databaseSchema,
  poolSize: 2,
  dataDir: config.dataDir,
});
let code = 0;
try {
  const newest = await newestSet(database.db);
  // A first start records the server's own folder as version 1: an import comes after it.
  if (!newest) {
    code = 1;
    process.stderr.write('the database holds no definitions yet: start the server once first\n');
  } else if (newest.digest === filesDigest(files)) {
    process.stdout.write(`Version ${newest.version} already holds these files: nothing imported\n`);
  } else {
    // The stored documents are checked against the set they were written under, as in the studio.
    const served = await checkDefinitions(newest.files, serverModules);
    const request = { base: newest.version, note, by, source: 'publish' as const };
    const { set } = await publishDefinitions(database.db, files, request, {
      modules: serverModules,
      served,
    });
    process.stdout.write(
      `Version ${set.version} (${set.note}, by ${set.publishedBy}): ${files.size} files imported from ${folder}\n`,
    );
  }
} catch (error) {
  code = 1;
  if (error instanceof DefinitionsError) {
    process.stderr.write(
      `Refused, nothing imported: ${error.problems.length} problem(s)\n` +
        error.problems
          .map((problem) => `  ${problem.file}#${problem.pointer}: ${problem.message}\n`)
          .join(''),
    );
  } else if (error instanceof StaleSetError) {
    process.stderr.write(`${error.message}: run the import again\n`);
  } else throw error;
} finally {
  await database.close();
}
process.exit(code);
