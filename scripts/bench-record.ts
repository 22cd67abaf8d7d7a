/**
 * `--record` of the benchmarks: replaces one benchmark's results block in docs/performance.md,
 * the text between `<!-- <name> results -->` and `<!-- /<name> results -->`, formatted as the
 * repository formats Markdown.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';
import { PROJECT_ROOT } from '../src/server/config';

const DOC = path.join(PROJECT_ROOT, 'docs/performance.md');

/**
 * Writes `text` as the results of benchmark `name` (`bench:form`...). `dated`: the text is
 * prefixed with "Recorded <today>: " (a benchmark whose text says when and where itself, passes
 * false).
 */
export async function recordResults(name: string, text: string, dated = true): Promise<void> {
  const begin = `<!-- ${name} results -->`;
  const end = `<!-- /${name} results -->`;
  const doc = await fs.readFile(DOC, 'utf8');
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`${DOC} has no ${begin} ... ${end} block`);
  const body = dated ? `Recorded ${new Date().toISOString().slice(0, 10)}: ${text}` : text;
  const next = `${doc.slice(0, start)}${begin}\n\n${body}\n\n${end}${doc.slice(stop + end.length)}`;
  const options = (await prettier.resolveConfig(DOC)) ?? {};
  await fs.writeFile(DOC, await prettier.format(next, { ...options, filepath: DOC }));
  process.stdout.write(`Recorded in ${path.relative(PROJECT_ROOT, DOC)}\n`);
}
