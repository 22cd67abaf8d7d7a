import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Shades of the brand blue; index 6 is the primary colour #0C548C (specification 000, section 9). */
const brand: MantineColorsTuple = [
  '#e6f1fa',
  '#cde0f0',
  '#9bbfe1',
  '#659cd3',
  '#3b7fc6',
  '#1f6bb5',
  '#0c548c',
  '#0a4878',
  '#083c64',
  '#052c4b',
];

/** Shades of the secondary gold; index 6 is #DEC570. */
const secondary: MantineColorsTuple = [
  '#fdf9ec',
  '#f8f0d4',
  '#f1e2a8',
  '#ead47b',
  '#e5ca5b',
  '#e2c64e',
  '#dec570',
  '#c4a63c',
  '#ae932f',
  '#967e22',
];

/** Text in the brand's colour (the header's title): the brand blue, lightened in dark mode. */
export const BRAND_TEXT_VARIABLE = '--portal-color-brand-text';
export const BRAND_TEXT = `var(${BRAND_TEXT_VARIABLE})`;
/** Text that calls for attention (the dashboard's My Tasks): red 8, lightened in dark mode. */
export const URGENT_TEXT_VARIABLE = '--portal-color-urgent-text';
export const URGENT_TEXT = `var(${URGENT_TEXT_VARIABLE})`;

/** The colour of the focus ring (focus.css), set per colour scheme below. */
export const FOCUS_RING_VARIABLE = '--portal-focus-ring';
/** The class Mantine gives every element it draws a focus ring on (focus.css draws it). */
export const FOCUS_CLASS = 'portal-focus';

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand, secondary },
  focusClassName: FOCUS_CLASS,
});

/** Colours Mantine gives under WCAG AA's 4.5:1 (dimmed text, error red), made to meet it. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': '#c92a2a',
    [BRAND_TEXT_VARIABLE]: brand[6],
    [URGENT_TEXT_VARIABLE]: 'var(--mantine-color-red-8)',
    // Destructive buttons: red 6 is 3.3:1 on white, red 9 is 5.9:1.
    '--mantine-color-red-outline': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': '#a61e1e',
    // Light badges (a screening hit, a case flag) print their text in shade 6, under 4.5:1 on
    // their tint: red 9 reads at 4.9:1, and a darker orange than orange 9 (3.9:1) at 6.3:1.
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-orange-light-color': '#9c3a0a',
    [FOCUS_RING_VARIABLE]: brand[6],
  },
  // The brand blue is 1.96:1 on the dark body: brand text, links and focus take brand 2 (7.9:1).
  dark: {
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-anchor': brand[2],
    [BRAND_TEXT_VARIABLE]: brand[2],
    [URGENT_TEXT_VARIABLE]: 'var(--mantine-color-red-4)',
    [FOCUS_RING_VARIABLE]: brand[2],
  },
});
