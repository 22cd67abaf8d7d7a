import type { ApiClient } from '../core/api/client';
import type { WorkflowDefinition } from '../core/documents/workflow';
import type { MediaReference } from '../core/documents/types';
import { isApiErrorBody } from '../core/api/errors';
import type { FormServices, CatalogOption } from '../engine/form';
import { API_BASE_URL } from './api';
import { fetchWithToken } from './download';
import { currentLanguage } from './i18n';
import type { Session } from './session';
import { backendOf } from '../core/documents/conventions';

/** What document forms need from the server: catalogue look-ups, uploads and reading them back. */
export function documentServices(
  api: ApiClient,
  session: Session,
  workflow?: Pick<WorkflowDefinition, 'id' | 'backend'>,
): FormServices {
  return {
    async documentChoices(document: string): Promise<CatalogOption[]> {
      // Asked of the form's own workflow, which answers only for a type its fields name.
      if (!workflow) return [];
      const [error, result] = await api.get<{ items: CatalogOption[] }>(
        backendOf(workflow),
        `/${encodeURIComponent(workflow.id)}/choices/${encodeURIComponent(document)}`,
      );
      return error ? [] : result.items;
    },
    async searchCatalog(catalogId, text, where = {}): Promise<CatalogOption[]> {
      // Entries valid today whose code or name holds the text; allowed values as repeated params.
      const query = new URLSearchParams([
        ...Object.entries(where).flatMap(([field, value]) =>
          (typeof value === 'string' ? [value] : value).map((v): [string, string] => [field, v]),
        ),
        ['search', text.trim()],
      ]);
      const [error, result] = await api.get<{ items: CatalogOption[] }>(
        'catalog',
        `/${encodeURIComponent(catalogId)}/options?${query.toString()}`,
      );
      return error ? [] : result.items;
    },
    async readFile(file: MediaReference): Promise<Blob> {
      const path = `/media/${encodeURIComponent(file.id)}`;
      const response = await fetchWithToken(session, path, currentLanguage());
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.blob();
    },
    async uploadFile(file: File, onProgress: (percent: number) => void): Promise<MediaReference> {
      const token = await session.token();
      return new Promise((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open('POST', `${API_BASE_URL}/media`);
        if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
        request.setRequestHeader('locale', currentLanguage());
        request.setRequestHeader('accept-language', currentLanguage());
        request.upload.onprogress = (event) => {
          if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
        };
        request.onerror = () => reject(new Error('NETWORK_UNAVAILABLE'));
        // Parsed by the browser: null when the answer is no JSON.
        request.responseType = 'json';
        request.onload = () => {
          const body: unknown = request.response;
          if (request.status === 201) resolve(body as MediaReference);
          else
            reject(
              new Error(
                isApiErrorBody(body)
                  ? (body.error.fields?.[0]?.message ?? body.error.message)
                  : request.statusText,
              ),
            );
        };
        const form = new FormData();
        form.append('file', file, file.name);
        request.send(form);
      });
    },
  };
}
