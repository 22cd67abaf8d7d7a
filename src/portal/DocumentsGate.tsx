import { useEffect, useState, type ReactNode } from 'react';
import { usePortal } from './context';
import type { DocumentParts } from './definitions';
import { PageLoading } from './lazyPage';
import { OfflinePage } from './pages/MessagePage';

/**
 * Renders a page once the definitions parts of its document types are here (spinner meanwhile;
 * the offline page if one cannot be fetched). Without `parts`, at once.
 */
export function DocumentsGate({
  parts,
  documents,
  children,
}: {
  parts: DocumentParts | undefined;
  documents: readonly string[];
  children: ReactNode;
}) {
  // The portal's bundle changes as each part arrives: reading it renders the gate again then.
  usePortal();
  const ready = !parts || parts.loaded(documents);
  const [failed, setFailed] = useState(false);
  const key = documents.join(' ');
  useEffect(() => {
    if (ready || !parts) return undefined;
    let current = true;
    parts.load(key.split(' ')).catch((error: unknown) => {
      console.warn('[portal] definitions could not be loaded', error);
      if (current) setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [parts, key, ready]);
  if (ready) return <>{children}</>;
  return failed ? <OfflinePage /> : <PageLoading />;
}
