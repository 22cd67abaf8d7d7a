import { createHashRouter, Navigate } from 'react-router-dom';
import { CATALOG_ROUTE_PREFIX } from '../core/definitions/routes';
import { Layout } from './Layout';
import { CatalogSearchPage } from './pages/CatalogSearchPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage, UnauthorizedPage } from './pages/MessagePage';

/** Hash routes, so the server only ever serves index.html at `/`. */
export function createPortalRouter() {
  return createHashRouter([
    {
      element: <Layout />,
      children: [
        { path: '/', element: <Navigate to="/home" replace /> },
        { path: '/home', element: <HomePage /> },
        { path: `${CATALOG_ROUTE_PREFIX}/:catalogId`, element: <CatalogSearchPage /> },
        { path: '/401', element: <UnauthorizedPage /> },
        { path: '/403', element: <UnauthorizedPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
