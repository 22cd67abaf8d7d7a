/**
 * The notes the service itself writes on a definitions version (a deployment's files recorded at
 * start), kept in English in the database as any note is; the studio shows each in the reader's
 * language by recognising it here (`systemNote`), people's notes as written.
 */
export const SET_NOTES = {
  firstStart: 'First start',
  deploymentChanged: 'The deployment changed the definition files',
  unserved: (by: string, version: number) =>
    `The deployment's changed files, recorded unserved: ${by} kept version ${version}`,
} as const;

/** Who the service records as the author of a deployment's files. */
export const DEPLOYMENT_AUTHOR = 'deployment';

/** A note the service wrote, as its text key (`studio.versions.notes.<key>`) and values. */
export function systemNote(
  note: string,
):
  | { key: 'firstStart' | 'deploymentChanged' | 'unserved'; params?: Record<string, string> }
  | undefined {
  if (note === SET_NOTES.firstStart) return { key: 'firstStart' };
  if (note === SET_NOTES.deploymentChanged) return { key: 'deploymentChanged' };
  const unserved =
    /^The deployment's changed files, recorded unserved: (.+) kept version (\d+)$/.exec(note);
  if (unserved) return { key: 'unserved', params: { by: unserved[1]!, version: unserved[2]! } };
  return undefined;
}
