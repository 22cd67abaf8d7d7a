/**
 * The public status check (docs/status-sharing.md, "In the portal"): where a checker enters a
 * holder's share code, offered when a document type declares `shareCodes`.
 */

/** The page's path (a hash route of the portal). */
export const STATUS_CHECK_PATH = '/status-check';

/** A workflow declaring `shareCodes`: its holders may make codes and the public page is open. */
export function sharesCodes(workflow: object): boolean {
  return 'shareCodes' in workflow && Boolean((workflow as { shareCodes?: unknown }).shareCodes);
}
