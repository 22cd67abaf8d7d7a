import { API_BASE_URL } from './api';
import type { Session } from './session';

/** Downloads a file of the API with the caller's token (a plain link could not carry it). */
export async function downloadFromApi(
  session: Session,
  path: string,
  filename: string,
  language: string,
): Promise<boolean> {
  const token = await session.token();
  const response = await fetch(`${API_BASE_URL}${path}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), locale: language },
  }).catch(() => undefined);
  if (!response?.ok) return false;
  const url = URL.createObjectURL(await response.blob());
  const link = window.document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
