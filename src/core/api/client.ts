import { isApiErrorBody, type ApiError } from './errors';
import type { SearchRequest, SearchResult } from '../search/protocol';

/** Every call answers `[error, data]`; the client never throws at its callers. */
export type ApiResult<T> = [ApiError, null] | [null, T];

export type HttpMethod = 'GET' | 'DELETE' | 'POST' | 'PUT' | 'PATCH';

export interface ApiClientOptions {
  /** Base address of the API host, e.g. `/api` in the browser or `http://localhost:8080/api`. */
  baseUrl: string;
  /** Named backends (challenge, catalog, ...) mapped to their paths under the host. */
  backends: Record<string, string>;
  /** The current language, sent as `locale` and `Accept-Language` on every call. */
  locale: () => string;
  /** The bearer token of the signed-in session, when there is one. */
  token?: () => string | undefined | Promise<string | undefined>;
  fetch?: typeof fetch;
}

/** Error codes the client produces itself, when no answer from the server can be read. */
export const CLIENT_ERRORS = {
  network: 'NETWORK_UNAVAILABLE',
  badResponse: 'BAD_RESPONSE',
  unknownBackend: 'UNKNOWN_BACKEND',
} as const;

export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function request<T>(
    method: HttpMethod,
    backend: string,
    path: string,
    body?: unknown,
  ): Promise<ApiResult<T>> {
    const prefix = options.backends[backend];
    if (prefix === undefined)
      return failure(0, CLIENT_ERRORS.unknownBackend, `Unknown backend ${backend}`);
    const locale = options.locale();
    const headers: Record<string, string> = {
      accept: 'application/json',
      locale,
      'accept-language': locale,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      const token = await options.token?.();
      if (token) headers.authorization = `Bearer ${token}`;
      response = await doFetch(`${options.baseUrl}${prefix}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      const message = cause instanceof Error && cause.message ? cause.message : undefined;
      return failure(0, CLIENT_ERRORS.network, message ?? 'Network unavailable');
    }
    let payload: unknown = null;
    const text = await response.text().catch(() => '');
    if (text) {
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
    }
    if (!response.ok) {
      if (isApiErrorBody(payload)) return [{ ...payload.error, status: response.status }, null];
      return failure(response.status, CLIENT_ERRORS.badResponse, response.statusText);
    }
    return [null, payload as T];
  }

  return {
    get: <T>(backend: string, path: string) => request<T>('GET', backend, path),
    delete: <T>(backend: string, path: string) => request<T>('DELETE', backend, path),
    post: <T>(backend: string, path: string, body?: unknown) =>
      request<T>('POST', backend, path, body),
    put: <T>(backend: string, path: string, body?: unknown) =>
      request<T>('PUT', backend, path, body),
    /** A search is a PATCH whose body holds the filter and the page options. */
    search: <T>(backend: string, path: string, searchRequest: SearchRequest) =>
      request<SearchResult<T>>('PATCH', backend, path, searchRequest),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

function failure(status: number, code: string, message: string): [ApiError, null] {
  return [{ status, code, message }, null];
}

/** The named backends of DESIGN.md section 4, all under one API host. */
export const DEFAULT_BACKENDS: Record<string, string> = {
  challenge: '/challenge',
  catalog: '/catalog/v1',
  enumerations: '/catalog/enumerations',
  media: '/media',
  evisa: '/evisa',
  payments: '/payments',
  definitions: '/definitions',
  system: '',
};
