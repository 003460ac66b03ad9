/** What must hold once the faults stop: every acknowledged payment once and final, books verified, webhooks delivered. */
import pg from 'pg';
import { idempotent, inAMinute, violation } from './client.ts';
import type { DatedRecords } from './dated.ts';
import { closeOpenSubscriptions, datedChecks } from './dated-checks.ts';
import type { Acknowledged, Confirmed } from './operations.ts';
import type { Service } from './processes.ts';
import type { Receivers } from './receivers.ts';
import type { Space } from './world.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A backlog's size, and for how long its items are still legitimately waiting (a scheduled retry, a lease). */
interface Backlog {
  n: number;
  waitingMs?: number;
}

/**
 * Waits for a backlog to reach zero. It may take as long as it keeps shrinking (a long run leaves a
 * longer one) or is waiting for something scheduled. Returns why it gave up (null when it drained):
 * it did neither for `stallMs`, or an hour passed in all.
 */
async function drains(
  what: string,
  stallMs: number,
  backlog: () => Promise<Backlog>,
): Promise<string | null> {
  const began = Date.now();
  let { n: lowest, waitingMs = 0 } = await backlog();
  let lowestAt = began;
  let waitEnds = began + waitingMs;
  const quietFor = () => Date.now() - Math.max(lowestAt, waitEnds);
  if (lowest > 0) console.log(`soak: waiting for ${lowest} ${what}`);
  while (lowest > 0 && quietFor() < stallMs && Date.now() - began < 3_600_000) {
    await sleep(1000);
    const now = await backlog();
    if (now.n < lowest) [lowest, lowestAt] = [now.n, Date.now()];
    waitEnds = Date.now() + (now.waitingMs ?? 0);
  }
  if (lowest === 0) return null;
  const stalled = quietFor() >= stallMs;
  const why = stalled ? `no progress for ${stallMs / 60_000} minutes` : 'still shrinking after an hour';
  console.log(`soak: ${lowest} ${what} left after ${((Date.now() - began) / 1000).toFixed(0)} s: ${why}`);
  return why;
}

export async function finalChecks(input: {
  app: Service;
  databaseUrl: string;
  tenants: Space[];
  receivers: Receivers;
  acked: Acknowledged[];
  confirmed: Confirmed[];
  dated: DatedRecords;
}): Promise<void> {
  const { app, tenants, receivers, acked, confirmed } = input;
  const db = new pg.Pool({ connectionString: input.databaseUrl, max: 2 });
  try {
    // Every payment of the soak's database is the soak's: none may stay open once the faults stop.
    const open = async () =>
      (
        await db.query<{ id: string; kind: string; workspace_id: string }>(
          `SELECT id, kind, workspace_id FROM payments WHERE status IN ('created', 'processing')`,
        )
      ).rows;
    // A subscription whose operation the run cut short has cycle payments waiting for a clock that
    // no longer moves: it is cancelled, which ends them.
    await closeOpenSubscriptions(app.base, input.dated);
    // Charges whose payment was never acknowledged (the client gave up mid-fault) are paid now; one
    // whose pay was acknowledged has lost it, and paying it again would hide that.
    const settled = new Set(confirmed.map((c) => c.paymentId));
    for (const row of await open()) {
      if (row.kind !== 'pix_cash_in' || settled.has(row.id)) continue;
      const tenant = tenants.find((t) => t.workspaceId === row.workspace_id)!;
      const path = `/v1/sandbox/simulate/payments/${row.id}/pay`;
      await idempotent(app.base, path, tenant.api, `final-${row.id}`, {}, inAMinute());
    }
    const countOpen = async () =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM payments WHERE status IN ('created', 'processing')`,
        )
      ).rows[0]!.n;
    const stillOpen = await drains('open payments', 240_000, async () => ({ n: await countOpen() }));
    if (stillOpen)
      for (const row of await open())
        violation(`payment ${row.kind} ${row.id} still open after the run (${stillOpen})`);
    await confirmedChecks(db, confirmed);
    const found = new Set<string>();
    for (let i = 0; i < acked.length; i += 50_000) {
      const ids = acked.slice(i, i + 50_000).map((a) => a.paymentId);
      const { rows } = await db.query<{ id: string }>('SELECT id FROM payments WHERE id = ANY($1)', [ids]);
      for (const row of rows) found.add(row.id);
    }
    for (const a of acked)
      if (!found.has(a.paymentId))
        violation(`acknowledged ${a.operation} ${a.paymentId} is not in the database`);
    const keyed = acked.filter((a) => a.key);
    const byKey = new Map<string, { n: number; id: string }>();
    for (let i = 0; i < keyed.length; i += 50_000) {
      const { rows } = await db.query<{
        workspace_id: string;
        idempotency_key: string;
        n: number;
        id: string;
      }>(
        `SELECT workspace_id, idempotency_key, count(*)::int AS n, min(id::text) AS id FROM payments
          WHERE idempotency_key = ANY($1) GROUP BY workspace_id, idempotency_key`,
        [keyed.slice(i, i + 50_000).map((a) => a.key)],
      );
      for (const row of rows) byKey.set(`${row.workspace_id} ${row.idempotency_key}`, row);
    }
    for (const a of keyed) {
      const row = byKey.get(`${a.workspaceId} ${a.key}`);
      if (row?.n !== 1 || row.id !== a.paymentId)
        violation(`key ${a.key} (${a.operation}): ${row?.n ?? 0} payments, acknowledged ${a.paymentId}`);
    }
    const sealed = await drains('unsealed journals', 120_000, async () => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger_journals j WHERE NOT EXISTS (SELECT 1 FROM ledger_seals s WHERE s.workspace_id = j.workspace_id AND s.journal_id = j.id)',
      );
      return { n: rows[0]!.n };
    });
    if (sealed) violation(`journals left unsealed after the run (${sealed})`);
    const verifyStarted = Date.now();
    const verify = await app.run(['verify', '--json']);
    const verifySeconds = ((Date.now() - verifyStarted) / 1000).toFixed(1);
    let report:
      | { ok: boolean; counts: unknown; checks: { name: string; violations: number; examples: unknown[] }[] }
      | undefined;
    try {
      report = JSON.parse(verify.stdout);
    } catch {
      violation(`lastro verify printed no report (exit ${verify.code}): ${verify.stdout.slice(0, 500)}`);
    }
    if (report) {
      console.log(
        `soak: lastro verify ${report.ok ? 'clean' : 'FAILED'} (exit ${verify.code}, ${verifySeconds} s with the process start) over ${JSON.stringify(report.counts)}`,
      );
      for (const check of report.checks)
        if (check.violations)
          violation(
            `lastro verify ${check.name}: ${check.violations} ${JSON.stringify(check.examples.slice(0, 3))}`,
          );
      if (report.ok !== (verify.code === 0))
        violation(`lastro verify exit ${verify.code} disagrees with its report`);
    }
    await webhookChecks(db, tenants, receivers);
    await datedChecks(db, input.dated, receivers);
  } finally {
    await db.end();
  }
}

/** Every status the API answered for a settled payment is still its status (a paid charge may since be refunded). */
async function confirmedChecks(db: pg.Pool, confirmed: Confirmed[]): Promise<void> {
  const kept = (said: string, now: string) => now === said || (said === 'completed' && now === 'refunded');
  for (let i = 0; i < confirmed.length; i += 50_000) {
    const batch = confirmed.slice(i, i + 50_000);
    const { rows } = await db.query<{ id: string; status: string }>(
      'SELECT id, status FROM payments WHERE id = ANY($1)',
      [batch.map((c) => c.paymentId)],
    );
    const status = new Map(rows.map((row) => [row.id, row.status]));
    for (const c of batch)
      if (!kept(c.status, status.get(c.paymentId) ?? 'missing'))
        violation(
          `payment ${c.paymentId} was answered ${c.status}, and is ${status.get(c.paymentId) ?? 'missing'}`,
        );
  }
  console.log(`soak: ${confirmed.length} answered settlements (charges paid, payouts failed) checked`);
}

async function webhookChecks(db: pg.Pool, tenants: Space[], receivers: Receivers): Promise<void> {
  const live = tenants.flatMap((t) =>
    t.endpoints.filter((e) => e.mode !== 'gone').map((e) => ({ tenant: t, ...e })),
  );
  const liveIds = live.map((e) => e.id);
  // A delivery whose first attempts failed waits for its next one (5 s, then 5 min, then 30 min):
  // that wait, or a killed worker's lease, is not a stall.
  const undelivered = await drains('webhook deliveries to live endpoints', 240_000, async () => {
    const { rows } = await db.query<{ n: number; waiting_ms: number | null }>(
      `SELECT count(*)::int AS n,
              (extract(epoch FROM greatest(max(next_attempt_at), max(locked_until)) - now()) * 1000)::float8 AS waiting_ms
         FROM webhook_deliveries WHERE endpoint_id = ANY($1) AND status <> 'delivered'`,
      [liveIds],
    );
    return { n: rows[0]!.n, waitingMs: Math.max(0, rows[0]!.waiting_ms ?? 0) };
  });
  if (undelivered) {
    const { rows: left } = await db.query(
      `SELECT id, status, attempts, last_error, next_attempt_at, locked_until FROM webhook_deliveries
        WHERE endpoint_id = ANY($1) AND status <> 'delivered' LIMIT 5`,
      [liveIds],
    );
    violation(
      `webhook deliveries to live endpoints not delivered after the run (${undelivered}): ${JSON.stringify(left)}`,
    );
  }
  const { rows: missing } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events e JOIN webhook_endpoints w ON w.workspace_id = e.workspace_id AND w.environment = e.environment
      WHERE w.id = ANY($1) AND e.created_at >= w.created_at
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                         WHERE d.workspace_id = e.workspace_id AND d.event_id = e.id AND d.endpoint_id = w.id)`,
    [liveIds],
  );
  if (missing[0]!.n) violation(`${missing[0]!.n} events have no delivery to a subscribed endpoint`);
  let events = 0;
  for (const endpoint of live) {
    const { rows } = await db.query<{ event_id: string }>(
      'SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    const got = receivers.acknowledged(endpoint.mode, endpoint.tenant.name);
    const lost = rows.filter((row) => !got.has(row.event_id));
    events += rows.length;
    if (lost.length)
      violation(
        `${lost.length} of ${rows.length} events never reached ${endpoint.mode} of ${endpoint.tenant.name}`,
      );
  }
  const { rows: gone } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_endpoints WHERE id = ANY($1) AND (status <> 'disabled' OR disabled_reason IS DISTINCT FROM 'gone')`,
    [tenants.flatMap((t) => t.endpoints.filter((e) => e.mode === 'gone').map((e) => e.id))],
  );
  if (gone[0]!.n) violation(`${gone[0]!.n} endpoints answering 410 were not disabled as gone`);
  if (receivers.counts.badSignatures)
    violation(
      `${receivers.counts.badSignatures} webhook requests with a bad signature or another event's id`,
    );
  console.log(
    `soak: webhooks: ${events} deliveries to ${live.length} live endpoints all received (${receivers.counts.failedOnPurpose} failed on purpose, ${receivers.counts.hung} hung)`,
  );
}
