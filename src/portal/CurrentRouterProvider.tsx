import { useLayoutEffect, useRef, useState } from 'react';
import { RouterProvider } from 'react-router-dom';

type PortalRouter = Parameters<typeof RouterProvider>[0]['router'];

/**
 * react-router's `RouterProvider`, sure to show the router's current location. The provider
 * reads the router's state as it first renders and hears of changes only from its layout
 * effect on. The portal's first render is a transition rendered in slices, with the browser's
 * turn between them: a navigation the browser makes meanwhile (the back button, an address
 * typed while the portal starts) changes the router's state before the provider listens.
 * react-router keeps such a change for the provider only while the router has no subscriber at
 * all, and the portal's router has one from the start (it preloads each page's code), so the
 * portal would stay on the page it started on while the address names another. If the state
 * moved before the provider listened, the provider starts again from the current state.
 */
export function CurrentRouterProvider({ router }: { router: PortalRouter }) {
  const rendered = useRef(router.state);
  const [generation, setGeneration] = useState(0);
  useLayoutEffect(() => {
    // Runs after the provider's own layout effect, which subscribed it.
    if (router.state !== rendered.current) {
      rendered.current = router.state;
      setGeneration((value) => value + 1);
    }
  }, [router, generation]);
  return <RouterProvider key={generation} router={router} />;
}
