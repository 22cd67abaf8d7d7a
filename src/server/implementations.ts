import { ENGINE_EFFECTS, ENGINE_DERIVING_EFFECTS, type Effect } from './documents/effects';
import { DEFAULT_BACKEND } from '../core/documents/conventions';
import {
  ENGINE_GUARD_PARAMETERS,
  ENGINE_GUARDS,
  type Guard,
  type GuardParameters,
} from './documents/guards';
import { ENGINE_SERVER_RULES, type ServerRule } from './documents/server-rules';
import { PAYMENT_EFFECTS } from './payments/effects';
import type { ServerModule } from './module';

/** Everything a workflow or schema may name: the engine's and the modules' implementations. */
export interface Implementations {
  effects: ReadonlyMap<string, Effect>;
  /** Effects a workflow's `derive` may run for a form's preview (they only compute data). */
  deriving: ReadonlySet<string>;
  guards: ReadonlyMap<string, Guard>;
  serverRules: ReadonlyMap<string, ServerRule>;
  /** The backends documents may be served under: the default one and those modules declare. */
  backends: ReadonlySet<string>;
  /** The parameters each guard taking any reads (`"guard": {"type", "params"}`). */
  guardParameters: ReadonlyMap<string, GuardParameters>;
  /** Who offers each name, by kind: "engine" or "module <id>" (the studio shows it). */
  owners: Readonly<Record<'effect' | 'guard' | 'server rule', ReadonlyMap<string, string>>>;
}

/** The engine's implementations joined with the modules'; a name given twice is refused. */
export function implementationsOf(modules: readonly ServerModule[]): Implementations {
  const effects = new Map<string, Effect>();
  const deriving = new Set<string>([...ENGINE_DERIVING_EFFECTS, ...PAYMENT_EFFECTS.deriving]);
  const guards = new Map<string, Guard>();
  const serverRules = new Map<string, ServerRule>();
  const guardParameters = new Map<string, GuardParameters>();
  const owners = {
    effect: new Map<string, string>(),
    guard: new Map<string, string>(),
    'server rule': new Map<string, string>(),
  };
  const add = <T>(
    kind: keyof typeof owners,
    into: Map<string, T>,
    owner: string,
    name: string,
    value: T,
  ) => {
    if (into.has(name)) throw new Error(`${owner}: ${kind} "${name}" is already defined`);
    into.set(name, value);
    owners[kind].set(name, owner);
  };
  const engine = {
    effects: { ...ENGINE_EFFECTS, ...PAYMENT_EFFECTS.effects },
    guards: ENGINE_GUARDS,
    guardParameters: ENGINE_GUARD_PARAMETERS,
    rules: ENGINE_SERVER_RULES,
  };
  for (const module of [engine, ...modules]) {
    const owner = 'id' in module ? `module ${module.id}` : 'engine';
    for (const [name, effect] of Object.entries(module.effects ?? {})) {
      add('effect', effects, owner, name, typeof effect === 'function' ? effect : effect.run);
      if (typeof effect !== 'function' && effect.derives) deriving.add(name);
    }
    for (const [name, guard] of Object.entries(module.guards ?? {}))
      add('guard', guards, owner, name, guard);
    for (const [name, parameters] of Object.entries(module.guardParameters ?? {}))
      guardParameters.set(name, parameters);
    for (const [name, rule] of Object.entries(module.rules ?? {}))
      add('server rule', serverRules, owner, name, rule);
  }
  const backends = new Set([DEFAULT_BACKEND, ...modules.flatMap((m) => m.backends ?? [])]);
  return { effects, deriving, guards, serverRules, backends, guardParameters, owners };
}

/** Every role the modules' records grant (in their seeds or the database); undefined: unknown. */
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
