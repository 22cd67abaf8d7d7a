import type { FieldError } from '../../core/api/errors';
import type { JsonSchema } from '../../core/definitions/types';
import type { MediaReference } from '../../core/documents/types';
import type { Language, TextTree } from '../../core/i18n/translate';
import type { EntityFormDefinition } from '../../core/rules/sections';
import type { SchemaError } from '../../core/validation/field-errors';

/** A precompiled (standalone Ajv) validate function, as the validator modules export them. */
export interface PrecompiledValidate {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** All of an entity's validators at once (src/server/definitions/validators.ts), by section id. */
export interface EntityValidators {
  validate: PrecompiledValidate;
  sections: Record<string, PrecompiledValidate>;
  rjsf: Record<string, Record<string, PrecompiledValidate>>;
  sectionSchemas: Record<string, JsonSchema>;
}

/** One section's validators, as /api/definitions/validators/schema/<entity>/<section>.js exports them. */
export interface SectionValidators {
  /** Validates `{ [sectionId]: value }`. */
  validate: PrecompiledValidate;
  /** RJSF validator functions keyed by schema hash, compiled from `schema`. */
  rjsf: Record<string, PrecompiledValidate>;
  schema: JsonSchema;
}

/**
 * Where a form takes its validators from as it needs them; `section()` and `document()` answer at
 * once with what has arrived.
 */
export interface ValidatorSource {
  section(sectionId: string): SectionValidators | undefined;
  loadSection(sectionId: string): Promise<SectionValidators>;
  document(): PrecompiledValidate | undefined;
  loadDocument(): Promise<PrecompiledValidate>;
}

export interface CatalogOption {
  code: string;
  name: string;
}

/** What the screen supplies to widgets that talk to the back end. */
export interface FormServices {
  /** A catalogue's entries valid today matching the text, and with `where` its field values. */
  searchCatalog?: (
    catalogId: string,
    text: string,
    where?: Readonly<Record<string, string | readonly string[]>>,
  ) => Promise<CatalogOption[]>;
  /** Code and label of the existing documents a `documentChoices` field may name. */
  documentChoices?: (document: string) => Promise<CatalogOption[]>;
  /** Uploads a file to the media backend, reporting progress from 0 to 100. */
  uploadFile?: (file: File, onProgress: (percent: number) => void) => Promise<MediaReference>;
  /** The content of an uploaded file, read with the reader's credentials; else names only. */
  readFile?: (file: MediaReference) => Promise<Blob>;
}

/** The document being edited: a JSON object whose top-level properties are the sections. */
export type DocumentData = Record<string, unknown>;

export interface DocumentFormHandle {
  /** Validates the whole document, shows every error and returns them (empty when valid). */
  validateAll(): FieldError[];
  /** Opens a section (e.g. the one holding the first error). */
  goToSection(sectionId: string): void;
  /** Forgets the dirty state, e.g. after the screen saved the document. */
  markClean(): void;
  /** Hands the text typed a moment ago (pendingEdits.ts) to `onChange` now. */
  flush(): void;
  /** The document with everything typed so far (flushes first). */
  currentValue(): DocumentData;
}

export interface DocumentFormProps {
  definition: EntityFormDefinition;
  /** All texts per language: the global tree with the entity's texts under its id. */
  texts: Partial<Record<Language, TextTree>>;
  language: Language;
  value: DocumentData;
  onChange: (value: DocumentData) => void;
  /** Sections the user may edit: their ids or 'all' (the default). Others read as a document. */
  editable?: readonly string[] | 'all';
  /** Sections not shown at all. */
  hidden?: readonly string[];
  /** Shows the whole document read-only. */
  readOnly?: boolean;
  /** A source fetching them as needed (`entityValidators`), or all of them already loaded. */
  validators: ValidatorSource | EntityValidators;
  services?: FormServices;
  /** Errors from the server, with JSON-pointer paths, shown under their fields. */
  extraErrors?: readonly FieldError[];
  onDirtyChange?: (dirty: boolean) => void;
  /** Section shown first; defaults to the first visible one. */
  initialSection?: string;
  /** Called when the active section changes. */
  onSectionChange?: (sectionId: string) => void;
}
