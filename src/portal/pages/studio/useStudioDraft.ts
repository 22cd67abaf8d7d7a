import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { DEPLOYMENT_AUTHOR, systemNote } from '../../../core/definitions/set-notes';
import type { ApiClient } from '../../../core/api/client';
import type { ApiError } from '../../../core/api/errors';
import type { Language, TextTree } from '../../../core/i18n/translate';
import type { EntityFormDefinition } from '../../../core/rules/sections';

/** One published version of the definitions, as the history lists it. */
export interface VersionSummary {
  version: number;
  digest: string;
  source: 'folder' | 'publish' | 'restore';
  note: string;
  publishedBy: string;
  publishedAt: string;
}

/** A version's author and note in the reader's words: the service's own are translated. */
export function versionWords(version: VersionSummary, t: TFunction) {
  const note = systemNote(version.note);
  return {
    by:
      version.publishedBy === DEPLOYMENT_AUTHOR
        ? t('studio.versions.deploymentAuthor')
        : version.publishedBy,
    note: note ? t(`studio.versions.notes.${note.key}`, note.params) : version.note,
  };
}

export interface DefinitionProblem {
  file: string;
  pointer: string;
  /** In the analyst's language. */
  message: string;
  /** The checker's text it is worded by, and its values: the same in every language. */
  key?: string;
  params?: Record<string, string | number>;
}

/** What the server's checker said of the draft. */
export interface CheckResult {
  valid: boolean;
  problems: DefinitionProblem[];
  warnings: DefinitionProblem[];
  /** The draft's digest: its preview validator modules are under it. */
  version?: string;
  impact?: DocumentImpact[];
  document?: {
    schema: EntityFormDefinition;
    translations: Record<Language, TextTree>;
    shared: Record<Language, TextTree>;
  };
}

/** Stored documents of a type that the draft's schema would make invalid. */
export interface DocumentImpact {
  document: string;
  checked: number;
  invalid: number;
  fields: Array<{ pointer: string; keyword: string; count: number }>;
  examples: string[];
}

/** File path -> its new text, or null when the draft removes it. */
export type DraftChanges = Record<string, string | null>;

const STORAGE_KEY = 'portal.studio.draft';

interface StoredDraft {
  base: number;
  changes: DraftChanges;
}

function readStored(): StoredDraft | undefined {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredDraft | null;
    return parsed && typeof parsed.base === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the draft in browser storage, or forgets it once it changes nothing. */
function store(draft: StoredDraft | undefined) {
  try {
    if (!draft || Object.keys(draft.changes).length === 0) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Private browsing without storage: the draft lives as long as the page.
  }
  return draft;
}

/** What a publish or a restore answers: the new version, with the checker's warnings. */
type Published = VersionSummary & { warnings: DefinitionProblem[] };

/** The server started on a changed definitions folder that a later publish kept unapplied. */
type FolderConflict = Record<'importedVersion' | 'servedVersion', number>;

/** A published version's files. */
const getSet = (api: ApiClient, version: number) =>
  api.get<{ files: Record<string, string> }>('definitions', `/sets/${version}`);

/** The studio's draft: the newest version's files and the changes (kept in browser storage). */
export function useStudioDraft(api: ApiClient) {
  const [versions, setVersions] = useState<VersionSummary[] | undefined>();
  const [folderConflict, setFolderConflict] = useState<FolderConflict | undefined>();
  const [baseFiles, setBaseFiles] = useState<ReadonlyMap<string, string> | undefined>();
  const [draft, setDraft] = useState<StoredDraft | undefined>(readStored);
  const [failure, setFailure] = useState<ApiError | undefined>();

  const load = useCallback(async () => {
    setFailure(undefined);
    const [error, history] = await api.get<{
      versions: VersionSummary[];
      folderConflict?: FolderConflict;
    }>('definitions', '/sets');
    if (error) return setFailure(error);
    setVersions(history.versions);
    setFolderConflict(history.folderConflict);
    const newest = history.versions[0];
    if (!newest) return;
    const [filesError, set] = await getSet(api, newest.version);
    if (filesError) return setFailure(filesError);
    setBaseFiles(new Map(Object.entries(set.files)));
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  const newest = versions?.[0];
  const changes = useMemo(() => draft?.changes ?? {}, [draft]);
  /** The version the draft was made from: a publish names it, and is refused if it is old. */
  const base = draft?.base ?? newest?.version;

  const file = useCallback(
    (path: string): string | undefined =>
      path in changes ? (changes[path] ?? undefined) : baseFiles?.get(path),
    [changes, baseFiles],
  );

  const setFile = (path: string, text: string | null) =>
    setDraft((old) => {
      const next: DraftChanges = { ...(old?.changes ?? {}) };
      if (text !== null && baseFiles?.get(path) === text) delete next[path];
      else next[path] = text;
      return store({ base: old?.base ?? newest?.version ?? 1, changes: next });
    });

  const discard = () => setDraft(store(undefined));

  /** The draft's files as they would be published. */
  const paths = useMemo(() => {
    const all = new Set([...(baseFiles?.keys() ?? []), ...Object.keys(changes)]);
    for (const [path, text] of Object.entries(changes)) if (text === null) all.delete(path);
    return [...all].sort();
  }, [baseFiles, changes]);

  /**
   * Checks the draft with `pending` changes not yet in state; `impact` also counts the stored
   * documents it would make invalid (for the Check button only: it reads them all).
   */
  const check = (document?: string, pending: DraftChanges = {}, impact = false) =>
    api.post<CheckResult>('definitions', '/sets/check', {
      base: base ?? 1,
      changes: { ...changes, ...pending },
      ...(document && { document }),
      ...(impact && { impact }),
    });

  const publish = async (note: string) => {
    const result = await api.post<Published>('definitions', '/sets', {
      base: base ?? 1,
      note,
      changes,
    });
    if (!result[0]) {
      discard();
      await load();
    }
    return result;
  };

  const restore = async (version: number, note: string) => {
    const result = await api.post<Published>('definitions', `/sets/${version}/restore`, {
      base: newest?.version ?? 1,
      note,
    });
    if (!result[0]) await load();
    return result;
  };

  /** Keeps the changes but makes them from the newest version (after another publish). */
  const rebase = () => {
    if (!newest) return;
    setDraft((old) => store({ base: newest.version, changes: old?.changes ?? {} }));
  };

  const filesOf = useCallback(
    async (version: number) => {
      const [error, set] = await getSet(api, version);
      return error ? undefined : new Map(Object.entries(set.files));
    },
    [api],
  );

  return {
    versions,
    folderConflict,
    newest,
    base,
    baseFiles,
    changes,
    paths,
    failure,
    file,
    setFile,
    discard,
    check,
    publish,
    restore,
    rebase,
    filesOf,
    /** Reads the versions again (after a publish made elsewhere than the draft). */
    reload: load,
  };
}

export type StudioDraft = ReturnType<typeof useStudioDraft>;

/** A check of the draft from a button: whether it runs, its answer (also returned), and the failure to get one. */
export function useDraftCheck(draft: StudioDraft) {
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<CheckResult | undefined>();
  const [failure, setFailure] = useState<ApiError | undefined>();
  const run = async (...args: Parameters<StudioDraft['check']>) => {
    setChecking(true);
    setFailure(undefined);
    const [error, checked] = await draft.check(...args);
    setChecking(false);
    if (error) setFailure(error);
    setResult(checked ?? undefined);
    return checked ?? undefined;
  };
  return { checking, result, setResult, failure, run };
}

/** The address of a checked draft's validator module (a catalogue's, or a document's). */
export function previewValidatorUrl(version: string, kind: 'catalog' | 'schema', id: string) {
  return `/api/definitions/sets/previews/${version}/validators/${kind}/${encodeURIComponent(id)}.js`;
}

/** Where a checked draft's section validator modules are, for `entityValidators`. */
export function previewValidatorsBase(version: string) {
  return `/api/definitions/sets/previews/${version}/validators/schema`;
}
