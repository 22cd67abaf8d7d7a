import { lazy, Suspense, useState, type ComponentType } from 'react';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OfflinePage } from './pages/MessagePage';

/** Shown while a page's code is being fetched, or (`label`) while something else is awaited. */
export function PageLoading({ label = 'messages.loading' }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t(label)} />
    </Center>
  );
}

/** A lazy page: a component, and a way to start fetching its code before it is rendered. */
export type LazyPage<P extends object> = ComponentType<P> & { preload(): void };

/**
 * A page whose code is its own chunk, behind a spinner; the offline page when the chunk cannot
 * be fetched (tried again next time). `preload()` starts the fetch early.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchPage = () => (loading ??= load());
  const attempt = () =>
    lazy(() =>
      fetchPage().then(
        (Page) => ({ default: Page }),
        (error: unknown) => {
          console.warn('[portal] a page could not be loaded', error);
          loading = undefined;
          current = attempt();
          return { default: OfflinePage as ComponentType<P> };
        },
      ),
    );
  let current = attempt();

  function LazyPage(props: P) {
    // One attempt per mounted page: a failed attempt is replaced for the next visit only.
    const [Page] = useState(() => current);
    return (
      <Suspense fallback={<PageLoading />}>
        <Page {...props} />
      </Suspense>
    );
  }
  // A failed preload is forgotten here; the page's own attempt reports it when opened.
  LazyPage.preload = () => void fetchPage().catch(() => (loading = undefined));
  return LazyPage;
}
