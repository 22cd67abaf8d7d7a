import { useLayoutEffect, useRef, useState } from 'react';
import { RouterProvider } from 'react-router-dom';

type PortalRouter = Parameters<typeof RouterProvider>[0]['router'];

/**
 * react-router's `RouterProvider`, starting again from the router's state if it moved (back
 * button, typed address) during the sliced first render, before the provider listened.
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
