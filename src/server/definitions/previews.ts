import type { DefinitionBundle } from '../../core/definitions/types';
import { catalogValidatorModule, entityValidatorModules } from './validators';

/** How many checked drafts a process keeps for their previews: the most recent ones. */
const KEPT_DRAFTS = 8;

/**
 * The studio's checked drafts, by bundle version, for their previews: validator modules are
 * compiled when first asked for, once; only the newest few are kept in the process.
 */
export class DefinitionPreviews {
  readonly #drafts = new Map<string, Draft>();

  /** Keeps a checked bundle (again the newest when already kept); its version names it. */
  add(bundle: DefinitionBundle): void {
    const kept = this.#drafts.get(bundle.version);
    this.#drafts.delete(bundle.version);
    this.#drafts.set(bundle.version, kept ?? new Draft(bundle));
    for (const version of this.#drafts.keys()) {
      if (this.#drafts.size <= KEPT_DRAFTS) break;
      this.#drafts.delete(version);
    }
  }

  /** A kept draft's definitions (what the studio's Roles tab lists), or undefined. */
  bundle(version: string): DefinitionBundle | undefined {
    return this.#drafts.get(version)?.bundle;
  }

  /** The module of a draft's catalogue, or undefined when the draft or catalogue is unknown. */
  async catalogModule(version: string, catalogId: string): Promise<string | undefined> {
    return this.#drafts.get(version)?.catalogModule(catalogId);
  }

  /** The whole-document module of a draft's entity. */
  async documentModule(version: string, entityId: string): Promise<string | undefined> {
    return (await this.#drafts.get(version)?.entityModules(entityId))?.document;
  }

  /** The module of one section of a draft's entity. */
  async sectionModule(
    version: string,
    entityId: string,
    sectionId: string,
  ): Promise<string | undefined> {
    return (await this.#drafts.get(version)?.entityModules(entityId))?.sections.get(sectionId);
  }
}

class Draft {
  readonly #catalogs = new Map<string, Promise<string>>();
  readonly #entities = new Map<string, ReturnType<typeof entityValidatorModules>>();
  constructor(readonly bundle: DefinitionBundle) {}

  async catalogModule(id: string): Promise<string | undefined> {
    const catalog = this.bundle.catalogs.find((c) => c.id === id);
    if (!catalog) return undefined;
    return once(this.#catalogs, id, () => catalogValidatorModule(catalog).then((m) => m.module));
  }

  /** One compilation gives the document's module and every section's. */
  async entityModules(id: string) {
    const entity = this.bundle.schemas.find((s) => s.id === id);
    return entity && once(this.#entities, id, () => entityValidatorModules(entity));
  }
}

/** What `make` gives, made once under `key`; a failed one is not kept: the next call tries again. */
function once<T>(kept: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let pending = kept.get(key);
  if (!pending) {
    pending = make();
    pending.catch(() => kept.delete(key));
    kept.set(key, pending);
  }
  return pending;
}
