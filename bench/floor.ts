/**
 * A floor under the stack: `npx tsx bench/floor.ts [--seconds N]` serves a bare node:http (or Fastify)
 * route that reads a JSON body, sends three parameterised statements through `pg` (a settings read by
 * key, a balance update, an insert of a 34-column row: the driver's cost of a payout's three round
 * trips' worth of statements, without their meaning) and answers JSON, and prints the server's CPU per
 * request, loaded by wrk as the HTTP bench is.
 *
 * It is a lower bound, not a payout: it reads none of the results (the debit's row count, the
 * settings), sends the three statements in one round trip, and leaves out the idempotency record, the
 * event, the job and the double entry. Its group commit runs no savepoints, picks any lane and does not
 * overlap a COMMIT with the next batch, but neither corks the socket as the service's driver does.
 * So a row says what Node, Fastify and `pg` cost at the least for that shape; what the service's route
 * costs above it is its work and ours.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { chooseLoadGenerator, runLoad } from './http-load.ts';
import { scratchDatabase } from './scratch.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--seconds');
const seconds = at >= 0 ? Number(args[at + 1]) : 8;
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error('floor: --seconds takes a number of seconds above 0');
  process.exit(2);
}
const databaseUrl =
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CONNECTIONS = 32;
const COLUMNS = 34;

type Work = (body: Record<string, unknown>) => Promise<unknown>;

const SCHEMA = `
  CREATE TABLE floor_settings (id uuid PRIMARY KEY, pix_key text, holder text, fee bigint);
  CREATE TABLE floor_balances (id uuid PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
  CREATE TABLE floor_rows (id uuid PRIMARY KEY, ${Array.from({ length: COLUMNS - 1 }, (_, i) => `c${i} text`).join(', ')});`;

/** A payout's three statements for one request, sent on `client` without waiting. */
function payoutStatementsOf(settingsId: string, balanceIds: string[]) {
  const insert = `INSERT INTO floor_rows VALUES (${Array.from({ length: COLUMNS }, (_, i) => `$${i + 1}`).join(', ')})`;
  const anyBalance = () => balanceIds[Math.floor(Math.random() * balanceIds.length)]!;
  return (client: pg.PoolClient, body: Record<string, unknown>, balanceId = anyBalance()) => [
    client.query({
      name: 'settings',
      text: 'SELECT * FROM floor_settings WHERE id = $1',
      values: [settingsId],
    }),
    client.query({
      name: 'debit',
      text: 'UPDATE floor_balances SET balance = balance - $2 WHERE id = $1 AND balance >= $2',
      values: [balanceId, String(body.amount_minor)],
    }),
    client.query({
      name: 'insert',
      text: insert,
      values: [
        randomUUID(),
        ...Array.from({ length: COLUMNS - 1 }, (_, i) => (i < 12 ? `value ${i}` : null)),
      ],
    }),
  ];
}

/** Each request its own transaction: BEGIN, the three statements and COMMIT, pipelined. */
function payoutStatements(pool: pg.Pool, settingsId: string, balanceIds: string[]): Work {
  const statements = payoutStatementsOf(settingsId, balanceIds);
  return async (body) => {
    const client = await pool.connect();
    try {
      await Promise.all([client.query('BEGIN'), ...statements(client, body), client.query('COMMIT')]);
    } finally {
      client.release();
    }
  };
}

/**
 * The same statements with the requests of a moment sharing one transaction (BEGIN and COMMIT once a
 * batch, as the service's group commit does), on `lanes` connections at most.
 */
function groupCommitted(pool: pg.Pool, settingsId: string, balanceIds: string[], lanes = 4): Work {
  const statements = payoutStatementsOf(settingsId, balanceIds);
  const queue: { body: Record<string, unknown>; balanceId: string; done: (error?: Error) => void }[] = [];
  let running = 0;
  const drain = () => {
    if (running >= lanes || queue.length === 0) return;
    running++;
    const batch = queue.splice(0, 32);
    void pool
      .connect()
      .then(async (client) => {
        try {
          const sent = [client.query('BEGIN')];
          // Balances in one order in every batch: two lanes never wait for each other crosswise.
          batch.sort((a, b) => a.balanceId.localeCompare(b.balanceId));
          for (const item of batch) sent.push(...statements(client, item.body, item.balanceId));
          sent.push(client.query('COMMIT'));
          await Promise.all(sent);
          for (const item of batch) item.done();
        } finally {
          client.release();
        }
      })
      .catch((error: Error) => {
        for (const item of batch) item.done(error);
      })
      .finally(() => {
        running--;
        drain();
      });
  };
  return (body) =>
    new Promise<void>((resolve, reject) => {
      const balanceId = balanceIds[Math.floor(Math.random() * balanceIds.length)]!;
      queue.push({ body, balanceId, done: (error) => (error ? reject(error) : resolve()) });
      drain();
    });
}

function serve(work: Work | undefined) {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      } catch {
        response.writeHead(400);
        response.end();
        return;
      }
      const answer = () => {
        const payload = JSON.stringify({ id: randomUUID(), status: 'processing', ...body });
        response.writeHead(201, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        });
        response.end(payload);
      };
      if (work === undefined) answer();
      else
        work(body).then(answer, (error: Error) => {
          response.writeHead(500);
          response.end(error.message);
        });
    });
  });
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** The same route on Fastify, with a body schema validated and a response schema serialised. */
async function serveFastify(work: Work | undefined) {
  const app = Fastify({ logger: false });
  const text = { type: 'string', maxLength: 200 };
  app.post(
    '/payouts',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['amount_minor'],
          properties: {
            amount_minor: { type: 'string', pattern: '^[0-9]+$' },
            pix_key: text,
            description: text,
          },
        },
        response: {
          201: {
            type: 'object',
            properties: { id: text, status: text, amount_minor: text, pix_key: text, description: text },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body as Record<string, unknown>;
      if (work) await work(body);
      return reply.code(201).send({ id: randomUUID(), status: 'processing', ...body });
    },
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

async function measure(
  name: string,
  work: Work | undefined,
  framework: 'node:http' | 'fastify' = 'node:http',
) {
  const server = framework === 'fastify' ? await serveFastify(work) : await serve(work);
  const generator = chooseLoadGenerator();
  const body = JSON.stringify({
    amount_minor: '100',
    pix_key: 'tesouraria@bench.com.br',
    description: 'floor',
  });
  const targets = [{ path: '/payouts', body, headers: {} }];
  try {
    await runLoad({ url: server.url, connections: 8, seconds: 2, targets }, generator);
    const cpu = process.cpuUsage();
    const result = await runLoad({ url: server.url, connections: CONNECTIONS, seconds, targets }, generator);
    const used = process.cpuUsage(cpu);
    const perRequestMs = (used.user + used.system) / 1000 / result['2xx'];
    const perSecond = result['2xx'] / result.duration;
    console.log(
      `| ${name} | ${perSecond.toFixed(0)} | ${(perRequestMs * 1000).toFixed(0)} µs | ${result.non2xx + result.errors + result.timeouts} |`,
    );
  } finally {
    await server.close();
  }
}

const scratch = await scratchDatabase(databaseUrl, 'lastro_bench_floor');
const pool = new pg.Pool({
  connectionString: scratch.url,
  max: CONNECTIONS,
  pipeline: true,
} as pg.PoolConfig);
// The scratch database's drop ends the clients: none of their errors may end this process.
pool.on('error', () => {});
pool.on('connect', (client) => client.on('error', () => {}));
try {
  await pool.query(SCHEMA);
  const settingsId = randomUUID();
  await pool.query("INSERT INTO floor_settings VALUES ($1, 'tesouraria@bench.com.br', 'Bench Ltda', 0)", [
    settingsId,
  ]);
  const balanceIds = Array.from({ length: CONNECTIONS }, () => randomUUID());
  for (const id of balanceIds) await pool.query('INSERT INTO floor_balances VALUES ($1, 999999999999)', [id]);
  console.log('| route | requests/s | server CPU a request | failed (non-2xx, errors) |');
  console.log('|---|---|---|---|');
  await measure('node:http, JSON in and out, no database', undefined);
  await measure('Fastify, body and response schemas, no database', undefined, 'fastify');
  await measure('… and one statement (SELECT 1) a request', async () => pool.query('SELECT 1'));
  await measure(
    '… and a payout’s statements, one transaction a request (BEGIN, 3 statements, COMMIT pipelined)',
    payoutStatements(pool, settingsId, balanceIds),
  );
  await measure(
    '… and a payout’s statements, group-committed (batches share BEGIN and COMMIT, 4 lanes)',
    groupCommitted(pool, settingsId, balanceIds),
  );
  await measure(
    'Fastify and a payout’s statements, group-committed',
    groupCommitted(pool, settingsId, balanceIds),
    'fastify',
  );
  await measure(
    'Fastify and a payout’s statements, one transaction a request',
    payoutStatements(pool, settingsId, balanceIds),
    'fastify',
  );
} finally {
  await pool.end();
  await scratch.drop();
}
