import { asNode, isNode, type Node } from '../definitions/json';

/** Texts of a translation file flattened to their keys (`person.familyName._`). */
export type FlatTexts = Map<string, string>;

/** Every text of a tree by its dotted key; `$schema` and notes are not texts. */
export function flattenTexts(tree: unknown, prefix = ''): FlatTexts {
  const flat: FlatTexts = new Map();
  if (!isNode(tree)) return flat;
  for (const [key, value] of Object.entries(tree)) {
    if (key.startsWith('$')) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flattenTexts(value, path)) flat.set(inner, text);
  }
  return flat;
}

/** The keys of both languages, in the English file's order, then the French file's own. */
export function textKeys(en: FlatTexts, fr: FlatTexts): string[] {
  return [...new Set([...en.keys(), ...fr.keys()])];
}

/** The tree with the text at a dotted key set, or removed when empty; a plain text becomes a group's `_`. */
export function setText(tree: Node, key: string, text: string): Node {
  const next = structuredClone(tree);
  const parts = key.split('.');
  let node: Node = next;
  for (const part of parts.slice(0, -1)) {
    const child = node[part];
    if (typeof child === 'string') node[part] = { _: child };
    else if (!isNode(child)) node[part] = {};
    node = node[part] as Node;
  }
  const last = parts[parts.length - 1] as string;
  if (text === '') delete node[last];
  else node[last] = text;
  return next;
}

/** Why a key cannot be added to a file's texts, or undefined when it can. */
export type KeyProblem = 'badKey' | 'exists' | 'group' | 'underText';

/**
 * A key is dotted segments, none empty or starting with `$` (those are notes); it must not be a
 * text already, a group of texts, or inside a text (which would turn the text into a group and
 * leave whatever names it pointing at a group).
 */
export function keyProblem(flat: FlatTexts, key: string): KeyProblem | undefined {
  const parts = key.split('.');
  if (
    !key.trim() ||
    parts.some((part) => !part.trim() || part !== part.trim() || part.startsWith('$'))
  )
    return 'badKey';
  if (flat.has(key)) return 'exists';
  if ([...flat.keys()].some((other) => other.startsWith(`${key}.`))) return 'group';
  if (parts.slice(1).some((_, i) => flat.has(parts.slice(0, i + 1).join('.')))) return 'underText';
  return undefined;
}

/** The tree without the text at `key`, and without the groups that leaves empty. */
export function removeText(tree: Node, key: string): Node {
  const next = setText(tree, key, '');
  const parts = key.split('.');
  for (let depth = parts.length - 1; depth > 0; depth--) {
    const parent = asNode(valueAtPath(next, parts.slice(0, depth - 1)));
    const name = parts[depth - 1] as string;
    const group = parent?.[name];
    if (!parent || !isNode(group) || Object.keys(group).length > 0) break;
    delete parent[name];
  }
  return next;
}

/** The value at a path of names down a tree, if there is one (nothing created). */
export const valueAtPath = (tree: unknown, names: readonly string[]): unknown =>
  names.reduce<unknown>((node, name) => asNode(node)?.[name], tree);

/** The tree with the text at `from` moved to `to` (unchanged when `from` has no text). */
export function renameText(tree: Node, from: string, to: string): Node {
  const text = flattenTexts(tree).get(from);
  return text === undefined ? tree : setText(removeText(tree, from), to, text);
}

/**
 * A definition with every value naming the text `from` naming `to` instead, and how many did:
 * lists, screens, menus and actions name their texts by their whole key.
 */
export function renameReferences(definition: unknown, from: string, to: string) {
  let count = 0;
  const renamed = mapLeaves(definition, (value) => {
    if (value !== from) return value;
    count++;
    return to;
  });
  return { renamed, count };
}

/**
 * A deep copy of a JSON value with each value that is neither an array nor an object replaced
 * by what `change` gives for it; the values under the key `keep` (a note) are copied as they are.
 */
export function mapLeaves(
  value: unknown,
  change: (leaf: unknown) => unknown,
  keep?: string,
): unknown {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, change, keep));
  if (!isNode(value)) return change(value);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === keep ? item : mapLeaves(item, change, keep),
    ]),
  );
}

/** A text the checker says is missing: its whole key (namespace first) and in which languages. */
export interface MissingText {
  key: string;
  languages: Array<'en' | 'fr'>;
}

/** What the checker reports, as far as the texts need it. */
interface CheckerProblem {
  file: string;
  pointer: string;
  message: string;
  /** The checker's text the problem is said by, and its values (the message is in words). */
  key?: string;
  params?: Record<string, string | number>;
}

const unescapePointer = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));

const isLanguage = (value: unknown): value is 'en' | 'fr' => value === 'en' || value === 'fr';

/**
 * The whole key and language a problem says a text is missing for, if it says so: read from the
 * checker's text and values, so it holds whatever language the message is worded in.
 */
function missingOf(problem: CheckerProblem): { key: string; language: 'en' | 'fr' } | undefined {
  const { file, pointer, key, params = {} } = problem;
  const language = params.language;
  // check-references.ts: a text a definition names, or a status's or action's.
  if (key === 'noText' && isLanguage(language) && typeof params.key === 'string')
    return { key: params.key, language };
  // check-rule-texts.ts: a rule's message.
  if (key === 'noRuleText' && isLanguage(language) && typeof params.rule === 'string')
    return { key: `validation.${params.rule}`, language };
  // check-documents.ts: a field's label, in the type's own file.
  const own = /^translations\/(en|fr)\/(.+)\.json$/.exec(file);
  if (key === 'missingLabel' && own && typeof params.path === 'string')
    return { key: `${own[2]}.${params.path}`, language: own[1] as 'en' | 'fr' };
  // load.ts: a text one language has and the other lacks, at its whole key.
  const shared = /^translations\/(en|fr)\.json$/.exec(file);
  if (key === 'missingTranslation' && shared)
    return { key: unescapePointer(pointer).join('.'), language: shared[1] as 'en' | 'fr' };
  return undefined;
}

/** The texts the checker's problems say are missing, each once with its languages. */
export function missingTexts(problems: readonly CheckerProblem[]): MissingText[] {
  const found = new Map<string, Set<'en' | 'fr'>>();
  for (const problem of problems) {
    const missing = missingOf(problem);
    if (!missing) continue;
    const languages = found.get(missing.key) ?? new Set();
    languages.add(missing.language);
    found.set(missing.key, languages);
  }
  return [...found].map(([key, languages]) => ({
    key,
    languages: (['en', 'fr'] as const).filter((language) => languages.has(language)),
  }));
}

/**
 * Where a whole key's text lives: in its namespace's file (`translations/<language>/<ns>.json`)
 * when its first segment is one, otherwise in the shared file (namespace "").
 */
export function textHome(key: string, namespaces: ReadonlySet<string>) {
  const dot = key.indexOf('.');
  const first = dot > 0 ? key.slice(0, dot) : '';
  return first && namespaces.has(first)
    ? { namespace: first, key: key.slice(dot + 1) }
    : { namespace: '', key };
}

/** The whole key of a namespace's key, as definitions name it. */
export const wholeKey = (namespace: string, key: string) =>
  namespace ? `${namespace}.${key}` : key;
