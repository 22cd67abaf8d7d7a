import { useMediaQuery } from '@mantine/hooks';

/** Where the header keeps one toolbar action and the menu becomes a drawer. */
const SMALL_SCREEN = '(max-width: 48em)';

/** Whether the screen is a phone's, read at first render (Mantine's hook rendered twice). */
export function useSmallScreen(): boolean {
  return useMediaQuery(SMALL_SCREEN, undefined, { getInitialValueInEffect: false }) ?? false;
}
