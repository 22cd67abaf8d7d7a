import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SET_NOTES, systemNote } from '../../src/core/definitions/set-notes';

/**
 * The notes the service writes on a definitions version are stored in English; the studio reads
 * each back as a text of its own to show it in the analyst's language, people's notes as written.
 */
const notes = (language: string) =>
  (
    JSON.parse(
      readFileSync(
        join(import.meta.dirname, '../../translations', language, 'studio.json'),
        'utf8',
      ),
    ) as { versions: { notes: Record<string, string> } }
  ).versions.notes;

describe('the service’s notes on a version', () => {
  it('reads each note the service writes back as its text, with its values', () => {
    expect(systemNote(SET_NOTES.firstStart)).toEqual({ key: 'firstStart' });
    expect(systemNote(SET_NOTES.deploymentChanged)).toEqual({ key: 'deploymentChanged' });
    expect(systemNote(SET_NOTES.unserved('ana.lyst', 12))).toEqual({
      key: 'unserved',
      params: { by: 'ana.lyst', version: '12' },
    });
    expect(systemNote('Legal review step added')).toBeUndefined();
  });

  it('has each in English and French', () => {
    for (const key of ['firstStart', 'deploymentChanged', 'unserved'])
      for (const language of ['en', 'fr']) expect(notes(language)[key]).toBeTruthy();
    expect(notes('en').unserved).toContain('{{by}}');
    expect(notes('fr').unserved).toContain('{{version}}');
  });
});
