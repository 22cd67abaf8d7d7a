import { useContext, useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '../core/api/client';
import { ModulesContext, type PortalModule } from '../engine/modules-context';
import { usePortal } from './context';

/** Each switch is asked once per API client: the menu, the home page and a page share the answer. */
const answers = new WeakMap<ApiClient, Map<string, Promise<boolean>>>();

function ask(modules: readonly PortalModule[], api: ApiClient, name: string): Promise<boolean> {
  const asked = answers.get(api) ?? new Map<string, Promise<boolean>>();
  answers.set(api, asked);
  let answer = asked.get(name);
  if (!answer) {
    const question = modules.find((module) => module.switches?.[name])?.switches?.[name];
    answer = question ? question(api) : Promise.resolve(false);
    asked.set(name, answer);
  }
  return answer;
}

/**
 * The answers of a module's switches (`PortalModule.switches`) by name: `undefined` while the
 * server has not said, and for none while single sign-on is still starting (a person about to
 * be found signed in may need other answers).
 */
export function useModuleSwitches(names: readonly string[]): Record<string, boolean | undefined> {
  const modules = useContext(ModulesContext);
  const { api, session } = usePortal();
  const [known, setKnown] = useState<Record<string, boolean>>({});
  const wanted = session.pending ? '' : [...new Set(names)].sort().join(' ');
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    for (const name of wanted.split(' '))
      void ask(modules, api, name).then((on) => {
        if (current) setKnown((before) => ({ ...before, [name]: on }));
      });
    return () => {
      current = false;
    };
  }, [modules, api, wanted]);
  return useMemo(
    () =>
      Object.fromEntries(
        wanted
          .split(' ')
          .filter(Boolean)
          .map((n) => [n, known[n]]),
      ),
    [wanted, known],
  );
}

/** One switch's answer, asked only when `wanted`. */
export function useModuleSwitch(name: string, wanted: boolean): boolean | undefined {
  return useModuleSwitches(wanted ? [name] : [])[name];
}
