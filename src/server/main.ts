import { buildServer } from './app';
import { configFromEnv } from './config';
import { DefinitionsError } from './definitions/load';

/** Starts the portal: one process serving the portal, the API (and later the identity server). */
async function main(): Promise<void> {
  const config = configFromEnv();
  let server;
  try {
    server = await buildServer(config);
  } catch (error) {
    if (error instanceof DefinitionsError) {
      process.stderr.write(`${error.message}\nThe portal did not start.\n`);
      process.exit(1);
    }
    throw error;
  }
  const { app, database } = server;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
    `portal ready on http://localhost:${config.port}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
