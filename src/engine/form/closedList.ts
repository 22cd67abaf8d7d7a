/**
 * Combobox settings of the lists a form draws: a list's options are in the page only while it
 * is open. Mantine keeps a closed list in the page by default (hidden), and each hidden list
 * places itself once as it mounts (floating-ui reads the computed style of the field and of its
 * ancestors, a style recalculation each time): on the applicant section, with nine lists, that
 * was the largest part of its first render.
 */
export const CLOSED_LIST = { keepMounted: false } as const;
