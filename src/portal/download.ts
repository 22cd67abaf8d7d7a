import { API_BASE_URL } from './api';
import { screenNamingFetch } from './screen';
import type { Session } from './session';

/** Fetches a file of the API with the caller's token (in a header, never in an address). */
export async function fetchWithToken(
  session: Session,
  path: string,
  language: string,
): Promise<Response> {
  const token = await session.token();
  // Naming the screen as the API client does (screen.ts): a download is an audited read.
  return screenNamingFetch(fetch)(`${API_BASE_URL}${path}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), locale: language },
  });
}

/** Downloads a file of the API with the caller's token (a plain link could not carry it). */
export async function downloadFromApi(
  session: Session,
  path: string,
  filename: string,
  language: string,
): Promise<boolean> {
  const response = await fetchWithToken(session, path, language).catch(() => undefined);
  if (!response?.ok) return false;
  const url = URL.createObjectURL(await response.blob());
  const link = window.document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
