/**
 * Notes the service writes (a confirmed payment) are kept as a key, parameters and English, for
 * each reader's language; only system actors' rows are read so, a person's notes are their own.
 */
export interface SystemNote {
  /** Translation key of the note, e.g. `notices.history.paid`. */
  key: string;
  params: Record<string, string>;
  /** The note in English, for readers without the texts (exports, logs). */
  text: string;
}

const MARK = 'system-note:';

/** The form a system note is stored in (the history's notes column). */
export function encodeSystemNote(note: SystemNote): string {
  return `${MARK}${JSON.stringify(note)}`;
}

/** Whether a history row's actor is the service itself. */
export function isSystemActor(subject: string): boolean {
  return subject === 'system' || subject.startsWith('system:');
}

/** A stored system note, or undefined for plain notes. */
export function decodeSystemNote(stored: string | null): SystemNote | undefined {
  if (!stored?.startsWith(MARK)) return undefined;
  try {
    const note = JSON.parse(stored.slice(MARK.length)) as Partial<SystemNote>;
    if (typeof note.key !== 'string' || typeof note.text !== 'string') return undefined;
    const params = Object.entries(note.params ?? {}).map(([name, value]) => [name, String(value)]);
    return { key: note.key, params: Object.fromEntries(params), text: note.text };
  } catch {
    return undefined;
  }
}
