import type { ModuleContext, StartedModule } from '../../../server/module';
import { apiCredentialsPlugin } from './api-credentials';
import { DocumentAccountDirectory } from './directory';
import { createNamedRoles } from './named-roles';
import { passwordsPlugin } from './passwords';
import { registrationPlugin } from './registration';
import { DirectoryRoleHolders } from './role-holders';
import { seedConnectid } from './seed';

/** The backend (`/api/connectid`) of the module's records: accounts, groups, policies, units. */
export const CONNECTID_BACKEND = 'connectid';

/**
 * Starts the user management module: its seed (demo personas with demo data), a record per
 * role the definitions name, the account directory the identity server reads, and its routes
 * under `/api/connectid` (registration, passwords, API credentials with the built-in server).
 */
export async function startConnectid(context: ModuleContext): Promise<StartedModule> {
  const { db, definitions, config, log, credentials } = context;
  const directory = new DocumentAccountDirectory(db, definitions);
  const demoAccounts = await seedConnectid(db, directory.records, config, log, (id, login, pass) =>
    credentials.setPassword(id, login, pass, undefined),
  );
  // The roles these definitions name exist as records, for the administration to grant.
  const createdRoles = await createNamedRoles(db, definitions);
  if (createdRoles.length > 0) log.info(`roles created: ${createdRoles.join(', ')}`);
  const account = directory.records.account;
  return {
    directory,
    demoAccounts,
    roleHolders: new DirectoryRoleHolders(definitions),
    accounts: account && {
      type: account.type,
      login: account.key.pointer,
      language: account.language,
    },
    async routes(api, services) {
      const documents = services.documents(CONNECTID_BACKEND);
      const prefix = `/${CONNECTID_BACKEND}`;
      if (documents)
        await api.register(registrationPlugin, {
          prefix,
          db,
          config,
          accounts: documents,
          directory,
          credentials,
        });
      await api.register(passwordsPlugin, { prefix, directory, credentials });
      const accountWorkflow = account && documents?.workflow(account.type).definition;
      // Client credentials are the built-in identity server's; a real Keycloak has its own.
      if (services.serviceClients && accountWorkflow) {
        await api.register(apiCredentialsPlugin, {
          prefix,
          directory,
          serviceClients: services.serviceClients,
          role: `${accountWorkflow.rolePrefix}security`,
          tokenUrl: services.tokenUrl,
        });
      }
    },
  };
}
