import { hasText, LANGUAGES } from '../../core/i18n/translate';
import { itemsAt, schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * Share codes (docs/status-sharing.md): `shareCodes` names statuses of the machine, lasts no
 * longer by default than at most, declares each purpose once with its texts in every language,
 * finds the photo among a list's items and reads each list's items by a field they have. A
 * pointer naming no field of the schema, and a text key naming none, are the references' check's
 * to report (references.ts): the keys here are those it cannot see (in each language, prefixes).
 */
export function checkShareCodes({
  workflow,
  entity,
  translations,
  report,
}: Pick<WorkflowScope, 'workflow' | 'entity' | 'translations' | 'report'>): void {
  const shareCodes = workflow.shareCodes;
  if (!shareCodes) return;
  const at = '/shareCodes';
  shareCodes.statuses.forEach((status, i) => {
    if (!Object.hasOwn(workflow.machine.states, status))
      report(`${at}/statuses/${i}`, said('noStatus', { status }));
  });
  if (shareCodes.defaultDays > shareCodes.maxDays)
    report(
      `${at}/defaultDays`,
      said('shareCodesDays', { defaultDays: shareCodes.defaultDays, maxDays: shareCodes.maxDays }),
    );
  const text = (pointer: string, key: string) => {
    // Each language's own texts: English would otherwise stand in for a missing French one.
    for (const language of LANGUAGES)
      if (!hasText({ [language]: translations[language] }, language, key))
        report(pointer, said('shareCodesText', { key, language }));
  };
  const seen = new Set<string>();
  shareCodes.purposes.forEach((purpose, i) => {
    if (seen.has(purpose.id))
      report(`${at}/purposes/${i}/id`, said('shareCodesPurposeTwice', { id: purpose.id }));
    seen.add(purpose.id);
    text(`${at}/purposes/${i}/label`, purpose.label);
    purpose.fields.forEach((field, j) => {
      const place = `${at}/purposes/${i}/fields/${j}`;
      text(`${place}/label`, field.label);
      if (!field.each || !entity || !schemaHasField(entity.schema, field.pointer)) return;
      const items = itemsAt(entity.schema, field.pointer);
      if (!items || !schemaHasField(items, field.each))
        report(
          `${place}/each`,
          said('shareCodesItemField', { list: field.pointer, field: field.each }),
        );
    });
  });
  if (shareCodes.notice)
    for (const part of ['subject', 'body']) text(`${at}/notice`, `${shareCodes.notice}.${part}`);
  const photo = shareCodes.photo;
  if (photo && entity && schemaHasField(entity.schema, photo.list)) {
    const items = itemsAt(entity.schema, photo.list);
    if (!items) report(`${at}/photo/list`, said('shareCodesPhotoNotList', { list: photo.list }));
    else {
      if (!schemaHasField(items, `/${photo.match.field}`))
        report(
          `${at}/photo/match/field`,
          said('shareCodesItemField', { list: photo.list, field: `/${photo.match.field}` }),
        );
      if (!schemaHasField(items, photo.file))
        report(
          `${at}/photo/file`,
          said('shareCodesItemField', { list: photo.list, field: photo.file }),
        );
    }
  }
}
