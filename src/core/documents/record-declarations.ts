/** What a workflow declares about its records (src/core/definitions/shapes/records.ts). */
export type * from '../definitions/shapes/records';
