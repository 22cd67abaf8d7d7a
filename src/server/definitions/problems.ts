/** One problem in one definition file, located by JSON pointer. */
export interface DefinitionProblem {
  file: string;
  pointer: string;
  message: string;
}

/** Says a problem at a pointer of one file. */
export type Report = (pointer: string, message: string) => void;

/** A `Report` for `file`, adding to `problems`. */
export function reporter(problems: DefinitionProblem[], file: string): Report {
  return (pointer, message) => void problems.push({ file, pointer, message });
}

/**
 * Reports each of `names` (at `${at}/<index>`) that is not `known` (a test, or a set or map that
 * has it), with `message` of it. Names of a list that is not an array (absent, or a single value
 * checked elsewhere) are none.
 */
export function reportUnknown(
  report: Report,
  names: unknown,
  at: string,
  known: ((name: string) => boolean) | { has(name: string): boolean },
  message: (name: string) => string,
): void {
  if (!Array.isArray(names)) return;
  (names as string[]).forEach((name, i) => {
    if (!(typeof known === 'function' ? known(name) : known.has(name)))
      report(`${at}/${i}`, message(name));
  });
}

export const workflowFile = (id: string) => `workflows/${id}.json`;
export const schemaFile = (id: string) => `schemas/${id}.schema.json`;
export const catalogFile = (id: string) => `catalogs/${id}.json`;

/** The definitions cannot be served: every problem found, each naming its file and pointer. */
export class DefinitionsError extends Error {
  constructor(readonly problems: DefinitionProblem[]) {
    super(
      `Definitions are invalid:\n${problems.map((p) => `  ${p.file}#${p.pointer}: ${p.message}`).join('\n')}`,
    );
    this.name = 'DefinitionsError';
  }
}
