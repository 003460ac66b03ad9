/**
 * PIX payouts over HTTP: `POST /v1/sandbox/pix/payouts` with a fresh Idempotency-Key per request, sent
 * by autocannon over 32 keep-alive connections to the real Fastify app listening on 127.0.0.1, on a
 * scratch PostgreSQL database. Every payout debits the same party (one hot balance), so the
 * yardstick is the ledger part's "one hot account" figure at the same concurrency: run.ts adds that
 * ratio once both parts have run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
// @ts-expect-error autocannon ships no type declarations
import autocannonUntyped from 'autocannon';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createDeps } from '../../src/deps.ts';
import { scratchDatabase, serverAnswers } from '../scratch.ts';
import type { BenchPart, BenchRow } from '../table.ts';

export const PAYOUTS_PART = 'payouts';
export const PAYOUTS_SCENARIO = 'POST /pix/payouts over HTTP (autocannon)';
const CONNECTIONS = Number(process.env.BENCH_PAYOUT_CONNECTIONS ?? 32);
const PAYOUT_AMOUNT = 100n;
const PAYOUT_FEE = 100n;

interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  requests: (AutocannonRequest & { setupRequest?: (req: AutocannonRequest) => AutocannonRequest })[];
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
const autocannon = autocannonUntyped as (options: AutocannonOptions) => Promise<AutocannonResult>;

export const payoutsBench: BenchPart = {
  name: PAYOUTS_PART,
  async run({ databaseUrl, quick }) {
    if (!databaseUrl || !(await serverAnswers(databaseUrl))) {
      console.error('bench: payouts needs PostgreSQL; none answers at the bench URL, skipped');
      return [];
    }
    const scratch = await scratchDatabase(databaseUrl, 'lastro_bench_payouts');
    // The pool matches the connections, as a production deployment would size it.
    const db = openPostgres(scratch.url, CONNECTIONS);
    try {
      await migrate(db);
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        RATE_LIMIT_MAX: '1000000',
        SANDBOX_SETTLE_MS: '1000',
      });
      const deps = createDeps(config, db, { masterKey: randomBytes(32).toString('hex') });
      // The API alone, as `lastro serve --no-workers` next to a separate `lastro worker`: the
      // measured path is the acknowledgement (checks, payment, debit, job, event, idempotency record).
      const app = await buildApp(deps, { logger: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const inject = async (method: 'POST' | 'PUT', url: string, payload: object, headers = {}) => {
          const res = await app.inject({ method, url, payload, headers });
          if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
          return res.json().data;
        };
        const signup = await inject('POST', '/v1/auth/signup', {
          email: `bench-${process.pid}@example.com`,
          password: 'correct horse battery staple',
          workspace_name: 'Bench Pagamentos',
        });
        const workspaceId: string = signup.workspace.id;
        const session = { authorization: `Bearer ${signup.session_token}`, 'x-workspace-id': workspaceId };
        const key = await inject('POST', '/v1/sandbox/api-keys', { name: 'bench' }, session);
        const auth = { authorization: `Bearer ${key.secret}`, 'x-workspace-id': workspaceId };
        await inject('POST', '/v1/sandbox/simulate/pix/cash-in', { amount_minor: '999999999999' }, auth);
        await inject(
          'PUT',
          '/v1/sandbox/settlement-key',
          {
            pix_key: 'tesouraria@bench.com.br',
            holder_name: 'Bench Ltda',
            holder_document: '11222333000181',
          },
          session,
        );

        const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
        const request = (connections: number, duration: number) =>
          autocannon({
            url,
            connections,
            duration,
            requests: [
              {
                method: 'POST',
                path: '/v1/sandbox/pix/payouts',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({ amount_minor: String(PAYOUT_AMOUNT), pix_key: '52998224725' }),
                setupRequest: (req) => ({
                  ...req,
                  headers: { ...req.headers, 'idempotency-key': randomUUID() },
                }),
              },
            ],
          });
        await request(8, 1); // warm-up: JIT, pool, plans
        const { rows: before } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM payments WHERE kind = 'pix_cash_out'",
        );
        const result = await request(CONNECTIONS, quick ? 3 : 10);
        // What the run left must add up: one payment and one debit of amount + fee per payout. Requests
        // in flight when autocannon stops still commit: wait for them, then read both in one snapshot.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const { rows: totals } = await db.query<{ n: number; locked: string | null }>(
          `SELECT (SELECT count(*)::int FROM payments WHERE kind = 'pix_cash_out') AS n,
                  (SELECT b.balance::text FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id
                    WHERE a.workspace_id = $1 AND a.kind = 'locked' AND a.currency = 'BRL') AS locked`,
          [workspaceId],
        );
        const created = totals[0]!.n - before[0]!.n;
        const lockedOk =
          BigInt(totals[0]!.locked ?? '0') === BigInt(totals[0]!.n) * (PAYOUT_AMOUNT + PAYOUT_FEE);
        const row: BenchRow = {
          part: PAYOUTS_PART,
          scenario: PAYOUTS_SCENARIO,
          database: 'postgres',
          concurrency: CONNECTIONS,
          opsPerSec: result['2xx'] / result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          note:
            `requests/s; ${result['2xx']} payouts in ${result.duration.toFixed(1)} s, non-2xx ${result.non2xx}, ` +
            `errors ${result.errors + result.timeouts}; ${created} payments created (incl. requests in flight at the end)` +
            (lockedOk ? ', locked = n × (amount + fee)' : ', LOCKED BALANCE DOES NOT ADD UP'),
        };
        console.error(`bench: payouts ${row.opsPerSec.toFixed(0)} requests/s, p99 ${row.p99Ms} ms`);
        return [row];
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
      await scratch.drop();
    }
  },
};

/**
 * The ratio the issue asks for: payouts/s over HTTP ÷ ledger-only transfers/s on one hot account at
 * the same concurrency, when both parts ran (the ledger row's opsPerSec is postings/s, two per transfer).
 */
export function addPayoutRatio(rows: BenchRow[]): void {
  const payout = rows.find((row) => row.part === PAYOUTS_PART && row.scenario === PAYOUTS_SCENARIO);
  if (!payout) return;
  const hot = rows.find(
    (row) =>
      row.part === 'ledger' &&
      row.database === 'postgres' &&
      (row.scenario === 'transfers debiting one hot account' ||
        (row.scenario.includes('hot account') && !/batch|group/i.test(row.scenario))) &&
      row.concurrency === payout.concurrency,
  );
  if (!hot) {
    payout.note = `${payout.note}; no ledger hot-account row in this run (add --only=ledger,payouts for the ratio)`;
    return;
  }
  const transfers = hot.opsPerSec / 2;
  payout.note = `${payout.note}; = ${((payout.opsPerSec / transfers) * 100).toFixed(0)} % of the ledger hot-account figure (${transfers.toFixed(0)} transfers/s at c=${hot.concurrency})`;
}
