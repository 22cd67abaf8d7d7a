import { ENGINE_EFFECTS, ENGINE_DERIVING_EFFECTS, type Effect } from './documents/effects';
import { DEFAULT_BACKEND } from '../core/documents/conventions';
import { ENGINE_GUARDS, type Guard } from './documents/guards';
import { ENGINE_SERVER_RULES, type ServerRule } from './documents/server-rules';
import { PAYMENT_EFFECTS } from './payments/effects';
import type { ServerModule } from './module';

/**
 * Everything a workflow or schema may name, by name: the engine's own effects, guards and
 * server rules (the document lifecycle, numbering, notices, payments) and those of the modules
 * the server was built with. Definitions are checked against these names at load, and the
 * document service runs them.
 */
export interface Implementations {
  effects: ReadonlyMap<string, Effect>;
  /** Effects a workflow's `derive` may run for a form's preview (they only compute data). */
  deriving: ReadonlySet<string>;
  guards: ReadonlyMap<string, Guard>;
  serverRules: ReadonlyMap<string, ServerRule>;
  /** The backends documents may be served under: the default one and those modules declare. */
  backends: ReadonlySet<string>;
}

/**
 * The engine's implementations joined with the modules'. A name given twice (by two modules,
 * or by a module and the engine) is refused: which one a workflow meant would be a guess.
 */
export function implementationsOf(modules: readonly ServerModule[]): Implementations {
  const effects = new Map<string, Effect>();
  const deriving = new Set<string>(ENGINE_DERIVING_EFFECTS);
  const guards = new Map<string, Guard>();
  const serverRules = new Map<string, ServerRule>();
  const add = <T>(kind: string, into: Map<string, T>, owner: string, name: string, value: T) => {
    if (into.has(name)) throw new Error(`${owner}: ${kind} "${name}" is already defined`);
    into.set(name, value);
  };
  for (const [name, effect] of Object.entries({ ...ENGINE_EFFECTS, ...PAYMENT_EFFECTS.effects }))
    add('effect', effects, 'engine', name, effect);
  for (const name of PAYMENT_EFFECTS.deriving) deriving.add(name);
  for (const [name, guard] of Object.entries(ENGINE_GUARDS))
    add('guard', guards, 'engine', name, guard);
  for (const [name, rule] of Object.entries(ENGINE_SERVER_RULES))
    add('server rule', serverRules, 'engine', name, rule);
  for (const module of modules) {
    const owner = `module ${module.id}`;
    for (const [name, effect] of Object.entries(module.effects ?? {})) {
      add('effect', effects, owner, name, typeof effect === 'function' ? effect : effect.run);
      if (typeof effect !== 'function' && effect.derives) deriving.add(name);
    }
    for (const [name, guard] of Object.entries(module.guards ?? {}))
      add('guard', guards, owner, name, guard);
    for (const [name, rule] of Object.entries(module.rules ?? {}))
      add('server rule', serverRules, owner, name, rule);
  }
  const backends = new Set([DEFAULT_BACKEND, ...modules.flatMap((m) => m.backends ?? [])]);
  return { effects, deriving, guards, serverRules, backends };
}

/**
 * Every role the modules' records grant (`seeded`: in their seeds; `stored`: in the database),
 * undefined when no module knows: the roles the definitions name are checked against it.
 */
export async function rolesGrantedBy(
  modules: readonly ServerModule[],
  ask: (
    granted: NonNullable<ServerModule['grantedRoles']>,
  ) => Promise<ReadonlySet<string> | undefined>,
): Promise<ReadonlySet<string> | undefined> {
  const known = (
    await Promise.all(modules.map((module) => module.grantedRoles && ask(module.grantedRoles)))
  ).filter((granted) => granted !== undefined);
  return known.length > 0 ? new Set(known.flatMap((granted) => [...granted])) : undefined;
}
