import { useMediaQuery } from '@mantine/hooks';

/** Where the header keeps one toolbar action and the menu becomes a drawer. */
const SMALL_SCREEN = '(max-width: 48em)';

/**
 * Whether the screen is a phone's. Read as the component first renders: the portal is never
 * rendered on a server, and Mantine's default (false first, the real answer in an effect) made
 * every phone render the desktop header first, six tooltips and all, then render it again.
 */
export function useSmallScreen(): boolean {
  return useMediaQuery(SMALL_SCREEN, undefined, { getInitialValueInEffect: false }) ?? false;
}
