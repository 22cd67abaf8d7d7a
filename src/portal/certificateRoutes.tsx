import type { RouteObject } from 'react-router-dom';
import type { DefinitionBundle } from '../core/definitions/types';
import { workflowRoles } from '../core/documents/workflow';
import { certificatePagePath } from '../core/documents/certificate-view';
import { lazyPage } from './lazyPage';
import { RequireRoles } from './RequireRoles';

const CertificatePage = lazyPage(() =>
  import('./pages/certificate/CertificatePage').then((m) => m.CertificatePage),
);

/**
 * The web page of each workflow's certificate (`certificate`), its own and its people's: for
 * anyone holding a role of the workflow (the server says who may read which one).
 */
export function certificateRoutes(bundle: DefinitionBundle): RouteObject[] {
  return bundle.workflows
    .filter((workflow) => workflow.certificate)
    .flatMap((workflow) =>
      [':id', ':id/:number'].map((tail) => ({
        path: `${certificatePagePath(workflow.id)}/${tail}`,
        handle: { preload: () => CertificatePage.preload() },
        element: (
          <RequireRoles roles={workflowRoles(workflow)}>
            <CertificatePage key={`${workflow.id}/${tail}`} workflow={workflow} />
          </RequireRoles>
        ),
      })),
    );
}
