import { buildServer } from './server/process';
import { configFromEnv } from './server/config';
import { DefinitionsError } from './server/definitions/problems';
import { serverModules } from './modules/server';

/**
 * Starts the portal: one process serving the portal, the API and the identity server. The
 * composition root: the one place where the engine meets the business modules' code.
 */
async function main(): Promise<void> {
  const config = configFromEnv();
  let server;
  try {
    server = await buildServer(config, serverModules);
  } catch (error) {
    if (error instanceof DefinitionsError) {
      process.stderr.write(`${error.message}\nThe portal did not start.\n`);
      process.exit(1);
    }
    throw error;
  }
  const { database, demoAccounts } = server;
  // The app of the definitions served at start (a publish switches to another), for its log.
  const { app } = server;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await server.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await server.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
    `portal ready on http://localhost:${config.port}`,
  );
  if (demoAccounts.length > 0) {
    // Demo personas of the embedded default (never in production): who to sign in as.
    const lines = demoAccounts.map(
      (a) => `  ${a.persona.padEnd(24)} ${a.loginIdentifier.padEnd(14)} ${a.password}`,
    );
    process.stdout.write(`\nDemo accounts (persona, login, password):\n${lines.join('\n')}\n\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
