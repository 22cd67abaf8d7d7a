/** Share codes: the holder's codes a third party checks their status with (docs/status-sharing.md). */
import {
  dataPointer,
  filled,
  identifier,
  relativePointer,
  some,
  STATUS_PATTERN,
  strict,
  textKey,
  Type,
  type Static,
} from './kit';

/** One line a purpose shows: its label and the data it reads (a list: each item's `each`). */
export const ShareCodeField = strict({
  label: textKey,
  pointer: dataPointer,
  /** For a list: the pointer, inside each item, of the text shown for it. */
  each: Type.Optional(relativePointer),
});
export type ShareCodeField = Static<typeof ShareCodeField>;

/** Why the holder shares their status (work, rent...): what the checker is shown. */
export const ShareCodePurpose = strict({
  id: identifier,
  label: textKey,
  fields: Type.Array(ShareCodeField),
});
export type ShareCodePurpose = Static<typeof ShareCodePurpose>;

/** The holder's photo among the document's uploads: the list item matching, and its file. */
export const ShareCodePhoto = strict({
  list: dataPointer,
  match: strict({ field: filled, equals: filled }),
  file: relativePointer,
});
export type ShareCodePhoto = Static<typeof ShareCodePhoto>;

export const WorkflowShareCodes = strict({
  /** Statuses in which the holder may make codes and a code is answered. */
  statuses: some(Type.String({ pattern: STATUS_PATTERN }), { uniqueItems: true }),
  /** Fields, any one of which the checker gives with the code (a date of birth). */
  holderFactors: some(dataPointer, { uniqueItems: true }),
  /** The holder's name: the non-empty values joined by a space. */
  name: some(dataPointer),
  photo: Type.Optional(ShareCodePhoto),
  /** The validity shown; by default the workflow's `verification` ones. */
  validFrom: Type.Optional(dataPointer),
  validUntil: Type.Optional(dataPointer),
  /** How long a code lasts unless the holder says, and at most. */
  defaultDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  maxDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  purposes: some(ShareCodePurpose),
  /** Text key of the holder's notice for each check (`<notice>.subject`, `.body`). */
  notice: Type.Optional(textKey),
});
export type WorkflowShareCodes = Static<typeof WorkflowShareCodes>;
