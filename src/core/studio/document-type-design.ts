/**
 * A new document type (module, schema, workflow, texts) written into a studio draft, from blank
 * or as a copy of an existing type, so that the draft passes the checker as generated. Pure: it
 * reads the draft's files and answers the files to write.
 */
import { isNode, type Node } from '../definitions/json';
import { isIdentifier } from '../definitions/names';
import type { Language } from '../i18n/translate';
import { fileText } from './schema-design';
import { mapLeaves, setText, valueAtPath } from './text-keys';

/** What the analyst says of the new type. */
export interface DocumentTypeDesign {
  /** The type's id: its schema's, workflow's, module's and texts' namespace (`appeal`). */
  id: string;
  titles: Record<Language, string>;
  /** The module's route prefix, one segment (`/appeal`). */
  prefix: string;
  /** Role suffix of the applicants who create and submit (`submit`: `appeal-submit`). */
  applicantRole: string;
  /** Role suffix of the officers who process (`process`: `appeal-process`). */
  officerRole: string;
  /** The workflow id of the type copied; none for a blank type. */
  copyOf?: string;
}

/** The draft's files as the generation reads them. */
export interface DraftFilesReader {
  paths: readonly string[];
  file: (path: string) => string | undefined;
}

/** A problem of the design before anything is written: a text key of `studio.newType`. */
export interface DesignProblem {
  field: keyof DocumentTypeDesign;
  key: string;
}

const LANGUAGES: readonly Language[] = ['en', 'fr'];
const MODULES = 'modules.json';
const PREFIX_PATTERN = /^\/[a-z][a-z0-9-]*$/;
const ROLE_PATTERN = /^[a-z][a-z0-9-]*$/;

/** The names of the blank type's parts: one section with one field, three statuses. */
export const BLANK = {
  section: 'details',
  field: 'summary',
  statuses: { draft: 'STORED', submitted: 'SUBMITTED', closed: 'CLOSED' },
} as const;

const parse = (text: string | undefined): Node | undefined => {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return isNode(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

interface ModuleEntry {
  id: string;
  prefix: string;
}

const modulesOf = (files: DraftFilesReader): ModuleEntry[] => {
  const modules = parse(files.file(MODULES))?.modules;
  return Array.isArray(modules)
    ? modules.filter(isNode).map((m) => m as unknown as ModuleEntry)
    : [];
};

const workflowIds = (files: DraftFilesReader) =>
  files.paths.flatMap((path) => /^workflows\/([^/]+)\.json$/.exec(path)?.[1] ?? []);

/** The types that may be copied: the workflows the documents' own API serves (no `backend`). */
export function copyableTypes(files: DraftFilesReader): Array<{ id: string; title: string }> {
  return workflowIds(files).flatMap((id) => {
    const workflow = parse(files.file(`workflows/${id}.json`));
    if (!workflow || workflow.backend !== undefined || workflow.inbox !== undefined) return [];
    const document = String(workflow.document ?? id);
    const title = parse(files.file(`translations/en/${document}.json`))?._title;
    return [{ id, title: typeof title === 'string' ? title : id }];
  });
}

/** Whether two route prefixes would share routes: the same, or one under the other. */
const overlaps = (a: string, b: string) =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** Fixed pages of the portal whose first segment no module may take. */
const FIXED_PREFIXES = ['/home', '/dashboard', '/catalog', '/studio', '/account', '/register'];

/** What the design lacks or clashes with, before a check: each a key of `studio.newType`. */
export function documentTypeProblems(
  design: DocumentTypeDesign,
  files: DraftFilesReader,
): DesignProblem[] {
  const problems: DesignProblem[] = [];
  const add = (field: keyof DocumentTypeDesign, key: string) => problems.push({ field, key });
  const taken = new Set([
    ...workflowIds(files),
    ...files.paths.flatMap((path) => /^schemas\/([^/]+)\.schema\.json$/.exec(path)?.[1] ?? []),
    ...files.paths.flatMap((path) => /^translations\/[a-z]+\/([^/]+)\.json$/.exec(path)?.[1] ?? []),
    ...modulesOf(files).map((module) => module.id),
  ]);
  if (!isIdentifier(design.id)) add('id', 'studio.newType.badId');
  else if (taken.has(design.id)) add('id', 'studio.newType.takenId');
  for (const language of LANGUAGES)
    if (!design.titles[language]?.trim()) add('titles', `studio.newType.noTitle.${language}`);
  if (!PREFIX_PATTERN.test(design.prefix)) add('prefix', 'studio.newType.badPrefix');
  else if (
    modulesOf(files).some((module) => overlaps(module.prefix, design.prefix)) ||
    FIXED_PREFIXES.some((fixed) => overlaps(fixed, design.prefix))
  )
    add('prefix', 'studio.newType.takenPrefix');
  if (!design.copyOf) {
    if (!ROLE_PATTERN.test(design.applicantRole)) add('applicantRole', 'studio.newType.badRole');
    if (!ROLE_PATTERN.test(design.officerRole)) add('officerRole', 'studio.newType.badRole');
    else if (design.officerRole === design.applicantRole)
      add('officerRole', 'studio.newType.sameRole');
  } else if (!copyableTypes(files).some((type) => type.id === design.copyOf))
    add('copyOf', 'studio.newType.noSource');
  return problems;
}

/** Draft changes: path -> the file's new text. */
export type GeneratedFiles = Record<string, string>;

/**
 * The files that add the type to the draft: modules.json with the module, the schema, the
 * workflow, its texts in both languages and, for a blank type, the shared texts of its statuses
 * and actions the draft does not have yet. Call it only for a design without problems.
 */
export function documentTypeFiles(
  design: DocumentTypeDesign,
  files: DraftFilesReader,
): GeneratedFiles {
  const generated = design.copyOf ? copiedType(design, design.copyOf, files) : blankType(design);
  const modules = parse(files.file(MODULES)) ?? { modules: [] };
  const list = Array.isArray(modules.modules) ? modules.modules : [];
  const out: GeneratedFiles = {
    [MODULES]: fileText({
      ...modules,
      modules: [...list, { id: design.id, prefix: design.prefix, enabled: true }],
    }),
    [`schemas/${design.id}.schema.json`]: fileText(generated.schema),
    [`workflows/${design.id}.json`]: fileText(generated.workflow),
  };
  for (const language of LANGUAGES) {
    out[`translations/${language}/${design.id}.json`] = fileText(generated.texts[language]);
    const sharedPath = `translations/${language}.json`;
    const shared = parse(files.file(sharedPath));
    if (!shared) continue;
    let next = shared;
    for (const [key, text] of Object.entries(generated.shared[language]))
      if (valueAtPath(next, key.split('.')) === undefined) next = setText(next, key, text);
    if (next !== shared) out[sharedPath] = fileText(next);
  }
  return out;
}

interface TypeParts {
  schema: Node;
  workflow: Node;
  texts: Record<Language, Node>;
  /** Texts of the shared files the type needs (`statuses.CLOSED`), added when missing. */
  shared: Record<Language, Record<string, string>>;
}

const TRANSLATIONS_SCHEMA = '../../meta/translations.schema.json';

/** "Appeal" -> "appeal", but "ETA" stays. */
const lowerFirst = (text: string) =>
  /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;

/** A blank type: one section with one text field, draft -> submitted -> closed. */
function blankType(design: DocumentTypeDesign): TypeParts {
  const { id, applicantRole: applicant, officerRole: officer } = design;
  const { section, field, statuses } = BLANK;
  const key = (rest: string) => `${id}.${rest}`;
  const columns = [
    { field: 'number', label: 'documents.number' },
    { field, pointer: `/${section}/${field}`, label: key(`${section}.${field}`) },
    { field: 'status', label: 'documents.status' },
    { field: 'updatedAt', label: 'documents.updatedAt' },
  ];
  const schema = {
    $schema: '../meta/entity.schema.json',
    id,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: [section],
      properties: {
        [section]: {
          type: 'object',
          additionalProperties: false,
          required: [field],
          properties: { [field]: { type: 'string', minLength: 1, maxLength: 2000 } },
        },
      },
    },
    sections: [{ id: section }],
  };
  const workflow = {
    $schema: '../meta/workflow.schema.json',
    id,
    document: id,
    prefix: design.prefix,
    rolePrefix: `${id}-`,
    numbering: { prefix: numberingPrefix(id), digits: 6 },
    seeAll: [officer],
    machine: {
      id,
      initial: 'NEW',
      states: {
        NEW: { on: { store: statuses.draft } },
        [statuses.draft]: { on: { update: statuses.draft, submit: statuses.submitted } },
        [statuses.submitted]: { on: { close: statuses.closed } },
        [statuses.closed]: { type: 'final' },
      },
    },
    actions: {
      store: { roles: [applicant], payload: 'data' },
      update: { roles: [applicant], owner: true, payload: 'data' },
      submit: {
        roles: [applicant],
        owner: true,
        payload: 'data',
        validate: true,
        emphasis: 'primary',
        effects: ['allocateNumber', 'setSubmissionDate'],
      },
      close: { roles: [officer], notes: 'optional', emphasis: 'primary' },
    },
    screens: [
      {
        path: '/new',
        mode: 'new',
        roles: [applicant],
        actions: ['store'],
        menu: key('menu.new'),
      },
      {
        path: '/edit/:id',
        mode: 'edit',
        roles: [applicant],
        actions: ['update', 'submit'],
      },
      { path: '/view/:id', mode: 'view', roles: [applicant, officer] },
      { path: '/version/:id/:ver', mode: 'version', roles: [applicant, officer] },
      {
        path: '/processing/:id',
        mode: 'verification',
        roles: [officer],
        actions: ['close'],
      },
    ],
    lists: [
      {
        id: 'mine',
        path: '/mine',
        roles: [applicant],
        columns,
        open: '/view/:id',
        label: key('lists.mine'),
      },
      {
        id: 'submitted',
        path: '/submitted',
        roles: [officer],
        status: [statuses.submitted],
        columns,
        open: '/processing/:id',
        label: key('lists.submitted'),
      },
    ],
  };
  const texts = (language: Language): Node => {
    const title = design.titles[language].trim();
    const en = language === 'en';
    return {
      $schema: TRANSLATIONS_SCHEMA,
      _title: title,
      [section]: { _: en ? 'Details' : 'Détails', [field]: en ? 'Summary' : 'Résumé' },
      menu: { new: en ? `New ${lowerFirst(title)}` : `Créer : ${title}` },
      lists: {
        mine: en ? 'My documents' : 'Mes documents',
        submitted: en ? 'To process' : 'À traiter',
      },
    };
  };
  return {
    schema,
    workflow,
    texts: { en: texts('en'), fr: texts('fr') },
    shared: {
      en: { [`statuses.${statuses.closed}`]: 'Closed', 'actions.close': 'Close' },
      fr: { [`statuses.${statuses.closed}`]: 'Clôturé', 'actions.close': 'Clôturer' },
    },
  };
}

/** The type's numbers' prefix: its id's letters, upper case, at most six (`APPEAL`). */
const numberingPrefix = (id: string) =>
  id
    .replace(/[^a-z]/g, '')
    .toUpperCase()
    .slice(0, 6) || 'DOC';

/**
 * A copy of `sourceId`'s schema, workflow and texts under the new id and prefix: every text key
 * the definitions name under the source's namespace is renamed into the new one, its roles keep
 * their suffixes under the new role prefix, its titles are the new ones.
 */
function copiedType(
  design: DocumentTypeDesign,
  sourceId: string,
  files: DraftFilesReader,
): TypeParts {
  const workflow = parse(files.file(`workflows/${sourceId}.json`)) ?? {};
  const documentId = typeof workflow.document === 'string' ? workflow.document : sourceId;
  const schema = parse(files.file(`schemas/${documentId}.schema.json`)) ?? {};
  const oldPrefix = typeof workflow.prefix === 'string' ? workflow.prefix : '';
  const oldModule = modulesOf(files).find((m) => overlaps(m.prefix, oldPrefix));
  const rest =
    oldModule && oldPrefix.startsWith(`${oldModule.prefix}/`)
      ? oldPrefix.slice(oldModule.prefix.length)
      : '';
  const rename = renamer([`${documentId}.`, `${sourceId}.`], `${design.id}.`);
  const copiedWorkflow = rename(workflow) as Node;
  copiedWorkflow.id = design.id;
  copiedWorkflow.document = design.id;
  copiedWorkflow.prefix = `${design.prefix}${rest}`;
  copiedWorkflow.rolePrefix = `${design.id}-`;
  if (isNode(copiedWorkflow.machine)) copiedWorkflow.machine.id = design.id;
  // Its own numbers: the source's prefix would make two types' numbers look alike.
  if (isNode(copiedWorkflow.numbering))
    copiedWorkflow.numbering.prefix = numberingPrefix(design.id);
  if (isNode(copiedWorkflow.reference))
    copiedWorkflow.reference.prefix = `${numberingPrefix(design.id).slice(0, 5)}R`;
  const copiedSchema = rename(schema) as Node;
  copiedSchema.id = design.id;
  const texts = {} as Record<Language, Node>;
  for (const language of LANGUAGES) {
    const source = parse(files.file(`translations/${language}/${documentId}.json`)) ?? {};
    texts[language] = { ...(rename(source) as Node), _title: design.titles[language].trim() };
  }
  return { schema: copiedSchema, workflow: copiedWorkflow, texts, shared: { en: {}, fr: {} } };
}

/** A deep copy with every string that starts with one of `from` starting with `to` instead. */
const renamer = (from: readonly string[], to: string) => (value: unknown) =>
  mapLeaves(value, (leaf) => {
    if (typeof leaf !== 'string') return leaf;
    const prefix = from.find((start) => leaf.startsWith(start));
    return prefix ? `${to}${leaf.slice(prefix.length)}` : leaf;
  });
