/**
 * Combobox settings: a list's options are in the page only while open. Mantine's hidden closed
 * lists each placed themselves on mount, most of a nine-list section's first render.
 */
export const CLOSED_LIST = { keepMounted: false } as const;
