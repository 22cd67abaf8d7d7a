import type { ServerModule } from '../server/module';
import { connectidModule } from './connectid/server';

/**
 * The business modules whose definitions need code on the server, handed to the server by its
 * composition root (src/main.ts). A module that is definitions alone (visa, sponsor) is not
 * listed: the engine's mechanisms serve it.
 */
export const serverModules: readonly ServerModule[] = [connectidModule];
