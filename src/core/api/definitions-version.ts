/** The header naming the definitions that answered: an open page compares it and, after a publish, offers to reload. */
export const DEFINITIONS_VERSION_HEADER = 'x-definitions-version';
