/**
 * The header on every API answer naming the definitions (their digest, the bundle's `version`)
 * that answered: the server sets it, an open page compares it with the definitions it loaded and,
 * after a publish, offers to reload.
 */
export const DEFINITIONS_VERSION_HEADER = 'x-definitions-version';
