/**
 * What one payout costs, statement by statement: `npx tsx bench/trace-payout.ts` (PostgreSQL at
 * BENCH_DATABASE_URL, else the default test server) prints every statement one warm
 * `POST /v1/sandbox/pix/payouts` sends, with its time from the request's start and its own duration,
 * and which of them the caller waited for (a round trip) and which were pipelined behind another.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';
import type { Database, Queryable, Tx } from '../src/db/types.ts';
import { createDeps } from '../src/deps.ts';
import { scratchDatabase } from './scratch.ts';

const serverUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const log: { at: number; ms: number; sql: string; overlapped: boolean }[] = [];
let tracing = false;
let t0 = 0;
let inFlight = 0;

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').slice(0, 110);

function traced<Q extends Queryable>(q: Q): Q {
  const wrap =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = performance.now();
      const overlapped = inFlight++ > 0;
      try {
        return await call(...args);
      } finally {
        inFlight--;
        const sql = oneLine(String(args[0]));
        if (tracing) log.push({ at: start - t0, ms: performance.now() - start, sql, overlapped });
      }
    };
  const traced = { ...q, query: wrap(q.query.bind(q)), exec: wrap(q.exec.bind(q)) };
  if ('later' in q) {
    const tx = q as unknown as Tx;
    Object.assign(traced, {
      later: (text: string, params?: readonly unknown[]) => {
        if (tracing)
          log.push({ at: performance.now() - t0, ms: 0, sql: `(later) ${oneLine(text)}`, overlapped: true });
        tx.later(text, params);
      },
    });
  }
  return traced;
}

const scratch = await scratchDatabase(serverUrl, 'lastro_trace');
const raw = openPostgres(scratch.url, 8);
const db: Database = {
  ...traced(raw),
  kind: raw.kind,
  transaction: (fn, options) => raw.transaction((tx) => fn(traced(tx) as Tx), options),
  close: () => raw.close(),
};
try {
  await migrate(db);
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000' });
  const app = await buildApp(createDeps(config, db, { masterKey: randomBytes(32).toString('hex') }), {
    logger: false,
  });
  const post = async (method: 'POST' | 'PUT', url: string, payload: object, headers = {}) => {
    const res = await app.inject({ method, url, payload, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const signup = await post('POST', '/v1/auth/signup', {
    email: 'trace@example.com',
    password: 'correct horse battery staple',
    workspace_name: 'Trace',
  });
  const session = { authorization: `Bearer ${signup.session_token}`, 'x-workspace-id': signup.workspace.id };
  const key = await post('POST', '/v1/sandbox/api-keys', { name: 'trace' }, session);
  const auth = { authorization: `Bearer ${key.secret}`, 'x-workspace-id': signup.workspace.id };
  await post('POST', '/v1/sandbox/simulate/pix/cash-in', { amount_minor: '100000' }, auth);
  const settlement = { pix_key: 'a@b.com.br', holder_name: 'T Ltda', holder_document: '11222333000181' };
  await post('PUT', '/v1/sandbox/settlement-key', settlement, session);
  const payout = () =>
    post(
      'POST',
      '/v1/sandbox/pix/payouts',
      { amount_minor: '100', pix_key: '52998224725' },
      { ...auth, 'idempotency-key': randomUUID() },
    );
  for (let i = 0; i < 20; i++) await payout(); // warm: plans, the key's last_used_at, JIT
  tracing = true;
  t0 = performance.now();
  await payout();
  const total = performance.now() - t0;
  tracing = false;
  for (const [i, s] of log.entries()) {
    const how = s.overlapped ? 'pipelined' : 'round trip';
    console.log(
      `${String(i + 1).padStart(2)}  +${s.at.toFixed(2)} ms  ${s.ms.toFixed(2)} ms  ${how}  ${s.sql}`,
    );
  }
  const trips = log.filter((s) => !s.overlapped).length;
  console.log(`${log.length} statements, ${trips} waited for, request ${total.toFixed(2)} ms end to end`);
  await app.close();
} finally {
  await raw.close();
  await scratch.drop();
}
