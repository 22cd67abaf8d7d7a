/**
 * The floor the scale benchmark (scripts/bench-scale.ts) compares the portal's document read
 * with: a bare Fastify server, no authentication, no access policy, no workflow, that selects a
 * document row by its primary key through `pg` with the portal's pool size, and a hello-world
 * route that touches nothing at all. Run in a process of its own, as the portal is:
 *
 *   PORT=8392 DATABASE_URL=postgres://... DATABASE_SCHEMA=bench_scale \
 *     node --import tsx bench/bare-fastify.ts
 *
 * Routes: `GET /document/:id` (the row as JSON, 404 when absent), `GET /hello`.
 */
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.env.PORT ?? 8392);
const schema = process.env.DATABASE_SCHEMA;
if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
// The portal's pool: 10 connections, the schema first on the search path.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  options: schema ? `-c search_path="${schema}",public` : undefined,
});

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/document/:id', async (request, reply) => {
  const { rows } = await pool.query('select * from document where id = $1', [request.params.id]);
  if (rows.length === 0) return reply.status(404).send({ error: 'not found' });
  return rows[0];
});
app.get('/hello', async () => ({ hello: 'world' }));
app.addHook('onClose', async () => pool.end());

const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare fastify ready on http://127.0.0.1:${port}\n`);
