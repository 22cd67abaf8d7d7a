/** A `uuid` column's id: checked before any query, so a malformed one is a 404, not a 500. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
