/**
 * The final checks of the date-driven operations, once the faults stopped and every webhook was
 * delivered: each paid due-date charge and each paid cycle was paid once (one PIX received, one
 * journal), holds what the soak computed, and was announced by one event; a cancelled subscription
 * had nothing charged after its cancellation.
 */
import type pg from 'pg';
import { idempotent, inAMinute, violation } from './client.ts';
import type { DatedRecords } from './dated.ts';
import type { Receivers } from './receivers.ts';

const PAID = new Set(['completed', 'refunded']);

/** Cancels the subscriptions whose operation did not run to its end (those still open). */
export async function closeOpenSubscriptions(base: string, dated: DatedRecords): Promise<void> {
  for (const sub of dated.subscriptions.filter((s) => s.paidCycles === null)) {
    const path = `/v1/sandbox/subscriptions/${sub.id}/cancel`;
    // 409 invalid_state: it had ended (completed, refused) before the operation was cut short.
    await idempotent(base, path, sub.space.api, `final-${sub.id}`, {}, inAMinute());
  }
}

export async function datedChecks(db: pg.Pool, dated: DatedRecords, receivers: Receivers): Promise<void> {
  await dueChargeChecks(db, dated);
  await cycleChecks(db, dated, receivers);
}

async function dueChargeChecks(db: pg.Pool, dated: DatedRecords): Promise<void> {
  const { rows } = await db.query<{
    id: string;
    status: string;
    amount_minor: string;
    journals: number;
    received: number;
  }>(
    `SELECT x.id, x.status, x.amount_minor::text,
            (SELECT count(*) FROM ledger_journals j WHERE j.workspace_id = d.workspace_id
                AND j.reference_type = 'payment' AND j.reference_id = d.payment_id::text)::int AS journals,
            (SELECT count(*) FROM sandbox_pix_received r WHERE r.workspace_id = d.workspace_id
                AND r.txid = x.pix_txid)::int AS received
       FROM pix_due_charges d JOIN payments x ON x.workspace_id = d.workspace_id AND x.id = d.payment_id
      WHERE d.payment_id = ANY($1)`,
    [dated.dueCharges.map((c) => c.id)],
  );
  const found = new Map(rows.map((row) => [row.id, row]));
  let paid = 0;
  for (const charge of dated.dueCharges) {
    const row = found.get(charge.id);
    if (!row) {
      violation(`due charge ${charge.id} is not in the database`);
      continue;
    }
    const once = PAID.has(row.status) ? 1 : 0;
    paid += once;
    if (row.journals !== once || row.received !== once)
      violation(
        `due charge ${charge.id} ${row.status}: ${row.journals} journals, ${row.received} PIX received`,
      );
    if (charge.paidMinor !== null && (!PAID.has(row.status) || BigInt(row.amount_minor) !== charge.paidMinor))
      violation(
        `due charge ${charge.id} is ${row.status} for ${row.amount_minor}; it was paid ${charge.paidMinor}`,
      );
  }
  console.log(`soak: ${dated.dueCharges.length} due-date charges checked, ${paid} paid once each`);
}

interface CycleRow {
  id: string;
  status: string;
  cancelled_at: Date;
  sequence: number | null;
  cycle_status: string | null;
  cycle_at: Date | null;
  payment_status: string | null;
  journals: number;
  received: number;
}

async function cycleRows(db: pg.Pool, ids: string[]): Promise<CycleRow[]> {
  const { rows } = await db.query<CycleRow>(
    `SELECT s.id, s.status, s.updated_at AS cancelled_at, c.sequence, c.status AS cycle_status,
            c.updated_at AS cycle_at, x.status AS payment_status,
            (SELECT count(*) FROM ledger_journals j WHERE j.workspace_id = c.workspace_id
                AND j.reference_type = 'payment' AND j.reference_id = c.payment_id::text)::int AS journals,
            (SELECT count(*) FROM sandbox_pix_received r WHERE r.workspace_id = c.workspace_id
                AND r.txid = c.txid)::int AS received
       FROM subscriptions s
       LEFT JOIN subscription_cycles c ON c.workspace_id = s.workspace_id AND c.subscription_id = s.id
       LEFT JOIN payments x ON x.workspace_id = c.workspace_id AND x.id = c.payment_id
      WHERE s.id = ANY($1)`,
    [ids],
  );
  return rows;
}

/** One cycle's record against itself and its subscription: what is wrong, or undefined. */
function cycleProblem(row: CycleRow): string | undefined {
  const paid = row.cycle_status === 'paid';
  const once = paid ? 1 : 0;
  if (paid && !PAID.has(row.payment_status ?? ''))
    return `paid, its payment ${row.payment_status ?? 'missing'}`;
  if (!paid && PAID.has(row.payment_status ?? ''))
    return `${row.cycle_status}, its payment ${row.payment_status}`;
  if (row.journals !== once || row.received !== once)
    return `${row.cycle_status}: ${row.journals} journals, ${row.received} PIX received`;
  if (row.status === 'cancelled' && (row.cycle_status === 'scheduled' || row.cycle_status === 'retrying'))
    return `${row.cycle_status} in a cancelled subscription`;
  if (row.status === 'cancelled' && paid && row.cycle_at! > row.cancelled_at)
    return `paid at ${row.cycle_at!.toISOString()}, after the cancellation at ${row.cancelled_at.toISOString()}`;
  return undefined;
}

async function cycleChecks(db: pg.Pool, dated: DatedRecords, receivers: Receivers): Promise<void> {
  const rows = await cycleRows(
    db,
    dated.subscriptions.map((s) => s.id),
  );
  const paidOf = new Map<string, number>();
  for (const row of rows) {
    if (row.sequence === null) continue;
    const problem = cycleProblem(row);
    if (problem) violation(`subscription ${row.id} cycle ${row.sequence}: ${problem}`);
    if (row.cycle_status === 'paid') paidOf.set(row.id, (paidOf.get(row.id) ?? 0) + 1);
  }
  let cycles = 0;
  for (const sub of dated.subscriptions) {
    const paid = paidOf.get(sub.id) ?? 0;
    cycles += paid;
    if (sub.paidCycles !== null && paid !== sub.paidCycles)
      violation(`subscription ${sub.id}: ${paid} cycles paid, the soak expects ${sub.paidCycles}`);
    for (const endpoint of sub.space.endpoints) {
      const seen = [...receivers.cyclesPaid(endpoint.mode, sub.space.name)].filter(([cycle]) =>
        cycle.startsWith(`${sub.id}#`),
      );
      const twice = seen.filter(([, events]) => events.size > 1);
      if (seen.length !== paid || twice.length)
        violation(
          `subscription ${sub.id}: ${paid} cycles paid, ${endpoint.mode} received cycle_paid for ${seen.length}` +
            (twice.length
              ? `, ${twice.map(([cycle, events]) => `${cycle} ${events.size} times`).join(', ')}`
              : ''),
        );
    }
  }
  const cancelled = dated.subscriptions.filter((s) => s.cancelled).length;
  console.log(
    `soak: ${dated.subscriptions.length} subscriptions (${cancelled} cancelled) checked: ${cycles} cycles paid, each once and announced once`,
  );
}
