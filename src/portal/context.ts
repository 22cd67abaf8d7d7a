import { createContext, useContext } from 'react';
import type { ApiClient } from '../core/api/client';
import type { DefinitionBundle } from '../core/definitions/types';
import type { Session } from './session';

export interface Portal {
  bundle: DefinitionBundle;
  session: Session;
  api: ApiClient;
}

export const PortalContext = createContext<Portal | null>(null);

export function usePortal(): Portal {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error('usePortal needs a PortalContext provider');
  return portal;
}
