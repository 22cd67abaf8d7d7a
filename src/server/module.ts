import type { Effect } from './documents/effect-context';
import type { Guard } from './documents/guards';
import type { ServerRule } from './documents/server-rules';

/** An effect that only computes data (no writes, no messages), so a form's preview may run it. */
export interface DerivingEffect {
  run: Effect;
  derives: true;
}

/**
 * The server-side code of one business module: the effects, guards and server rules its
 * definitions name (`"effects": ["ownAccount"]`, `"guard": "..."`, `"server": true` rules).
 * A module is a value handed to `buildServer` and `loadDefinitions`, the way XState's
 * `setup({ guards, actions })` takes implementations: nothing registers itself on import.
 */
export interface ServerModule {
  /** The module's id, as `modules.json` names it. */
  id: string;
  effects?: Readonly<Record<string, Effect | DerivingEffect>>;
  guards?: Readonly<Record<string, Guard>>;
  rules?: Readonly<Record<string, ServerRule>>;
}

/** Declares a module's server code; typed, so a wrong signature fails to compile in the module. */
export function defineModule<M extends ServerModule>(module: M): M {
  return module;
}
