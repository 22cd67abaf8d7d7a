import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Shades of the brand blue; index 6 is the brand colour #0C548C. */
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

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
});
