import { useParams } from 'react-router-dom';
import { isEnabled, catalogReaderRoles, roleList } from '../../core/definitions/types';
import { CatalogFinder } from '../../engine';
import { catalogValidatorUrl } from '../api';
import { usePortal } from '../context';
import { RequireRoles } from '../RequireRoles';
import { useLanguage } from '../useLanguage';
import { NotFoundPage } from './MessagePage';

/** The finder of the catalogue named in the address (the server checks every call). */
export function CatalogSearchPage() {
  const { catalogId } = useParams();
  const { bundle, session, api } = usePortal();
  const language = useLanguage();
  const catalog = bundle.catalogs.find((c) => c.id === catalogId && isEnabled(c));
  if (!catalog) return <NotFoundPage />;
  return (
    <RequireRoles roles={catalogReaderRoles(catalog)}>
      <CatalogFinder
        key={catalog.id}
        catalog={catalog}
        api={api}
        language={language}
        translations={bundle.translations}
        canManage={session.hasAnyRole(roleList(catalog.managerRoles))}
        validatorUrl={catalogValidatorUrl(catalog.id)}
        allCatalogs={bundle.catalogs}
      />
    </RequireRoles>
  );
}
