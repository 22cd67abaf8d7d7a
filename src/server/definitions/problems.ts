/** One problem in one definition file, located by JSON pointer. */
export interface DefinitionProblem {
  file: string;
  pointer: string;
  message: string;
}

/** The definitions cannot be served: every problem found, each naming its file and pointer. */
export class DefinitionsError extends Error {
  constructor(readonly problems: DefinitionProblem[]) {
    super(
      `Definitions are invalid:\n${problems.map((p) => `  ${p.file}#${p.pointer}: ${p.message}`).join('\n')}`,
    );
    this.name = 'DefinitionsError';
  }
}
