/**
 * The read-only queries of `lastro verify`. Each returns the rows that break one invariant (at most
 * `limit`, with the total), so a clean database answers with nothing to ship over the wire.
 */
import type { Queryable } from '../../db/types.ts';
import { PAYMENT_STATUSES, type PaymentKind, type PaymentStatus } from '../payments/schemas.ts';
import { PAYMENT_TRANSITIONS } from '../payments/service.ts';
import { DISPUTE_INVARIANTS } from './disputes.ts';
import { RECURRING_INVARIANTS } from './recurring.ts';

export interface Finding {
  subject: string;
  detail: string;
}

type Row = { subject: string; detail: string; total: bigint };

async function findings(
  q: Queryable,
  sql: string,
  params: unknown[],
  limit: number,
): Promise<{ total: number; found: Finding[] }> {
  const { rows } = await q.query<Row>(
    `SELECT subject::text, detail::text, count(*) OVER ()::bigint AS total FROM (${sql}) f ORDER BY subject LIMIT ${limit}`,
    params,
  );
  return {
    total: Number(rows[0]?.total ?? 0n),
    found: rows.map(({ subject, detail }) => ({ subject, detail })),
  };
}

const signed = `CASE p.direction WHEN 'credit' THEN p.amount ELSE -p.amount END`;

/** SQL of each ledger and record invariant: rows (subject, detail) that break it. */
export const INVARIANTS: Record<string, string> = {
  journal_balances: `SELECT p.journal_id AS subject, p.currency || ' off by ' || sum(${signed}) AS detail
      FROM ledger_postings p GROUP BY p.workspace_id, p.journal_id, p.currency HAVING sum(${signed}) <> 0`,
  journal_postings: `SELECT j.id AS subject, 'a journal with ' || count(p.id) || ' postings' AS detail
      FROM ledger_journals j LEFT JOIN ledger_postings p ON p.workspace_id = j.workspace_id AND p.journal_id = j.id
     GROUP BY j.workspace_id, j.id HAVING count(p.id) < 2`,
  balance_replay: `SELECT b.account_id AS subject, 'balance ' || b.balance || ', postings sum to ' || coalesce(s.sum, 0) AS detail
      FROM ledger_balances b FULL JOIN (SELECT p.workspace_id, p.account_id, sum(${signed}) AS sum FROM ledger_postings p
                    GROUP BY p.workspace_id, p.account_id) s
        ON s.workspace_id = b.workspace_id AND s.account_id = b.account_id
     WHERE b.balance IS DISTINCT FROM coalesce(s.sum, 0) OR b.account_id IS NULL`,
  negative_party_balance: `SELECT a.id AS subject, a.kind || ' ' || a.currency || ' balance ' || b.balance AS detail
      FROM ledger_accounts a JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
     WHERE a.party_id IS NOT NULL AND b.balance < 0`,
  cross_workspace_posting: `SELECT p.id AS subject,
           CASE WHEN j.id IS NULL THEN 'posting without its journal in its workspace'
                ELSE 'posting to an account not of its workspace' END AS detail
      FROM ledger_postings p
      LEFT JOIN ledger_journals j ON j.workspace_id = p.workspace_id AND j.id = p.journal_id
      LEFT JOIN ledger_accounts a ON a.workspace_id = p.workspace_id AND a.id = p.account_id
     WHERE j.id IS NULL OR a.id IS NULL`,
  // Journals and events carry no key to their workspace (migration 0036), payments one through their
  // party only: their writers take it from an authenticated caller, and workspaces are never deleted.
  unknown_workspace: ['ledger_journals', 'payments', 'events']
    .map(
      (
        table,
      ) => `SELECT x.id AS subject, '${table} row of workspace ' || x.workspace_id || ', which does not exist' AS detail
      FROM ${table} x WHERE NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.id = x.workspace_id)`,
    )
    .join(' UNION ALL '),
  // Two branches, not one OR: under an OR the NOT EXISTS ran once per journal, a scan of payments
  // each time (quadratic; over some 330,000 journals it had not ended after five minutes).
  orphan_journal: `SELECT j.id AS subject, 'journal of payment ' || j.reference_id || ' without its payment' AS detail
      FROM ledger_journals j
     WHERE j.reference_type = 'payment' AND NOT EXISTS (SELECT 1 FROM payments x
             WHERE x.id::text = j.reference_id AND x.workspace_id = j.workspace_id AND x.environment = j.environment)
    UNION ALL
    SELECT j.id, 'journal of ' || j.reference_type || ' ' || j.reference_id || ' without its payment'
      FROM ledger_journals j WHERE j.reference_type NOT IN ('payment', 'reclassification', 'dispute')`,
  // A dispute's hold journals: disputes.ts.
  ...DISPUTE_INVARIANTS,
  // Due-date charges' and subscription cycles' payments against their records: recurring.ts.
  ...RECURRING_INVARIANTS,
  idempotency_key_reuse: `SELECT x.workspace_id || '/' || x.environment || '/' || x.idempotency_key AS subject,
            count(*) || ' payments: ' || string_agg(x.id::text, ' ' ORDER BY x.id) AS detail
      FROM payments x WHERE x.idempotency_key IS NOT NULL
     GROUP BY x.workspace_id, x.environment, x.party_id, x.idempotency_key HAVING count(*) > 1`,
  // What the parties owe of MED returns is what the workspace's party_receivable holds.
  party_debt: `WITH owed AS (SELECT workspace_id, environment, sum(outstanding_minor) AS owed FROM pix_med_returns GROUP BY 1, 2),
         held AS (SELECT a.workspace_id, a.environment, -sum(b.balance) AS held
                    FROM ledger_accounts a JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
                   WHERE a.party_id IS NULL AND a.kind = 'party_receivable' GROUP BY 1, 2)
    SELECT coalesce(o.workspace_id, h.workspace_id) || '/' || coalesce(o.environment, h.environment) AS subject,
           'parties owe ' || coalesce(o.owed, 0) || ' of MED returns, party_receivable holds ' || coalesce(h.held, 0) AS detail
      FROM owed o FULL JOIN held h ON h.workspace_id = o.workspace_id AND h.environment = o.environment
     WHERE coalesce(o.owed, 0) <> coalesce(h.held, 0)`,
  // Each MED return's record is its payment's: same amount and party, a shortfall within the amount,
  // an outstanding within the shortfall (payment_postings trusts these when it checks the nets).
  med_return_record: `SELECT r.payment_id::text AS subject,
           'return of ' || r.amount_minor || ' for party ' || r.party_id || ' (shortfall ' || r.shortfall_minor
           || ', outstanding ' || r.outstanding_minor || '); its payment: '
           || coalesce(x.kind || ' of ' || x.amount_minor || ' for party ' || x.party_id, 'none') AS detail
      FROM pix_med_returns r
      LEFT JOIN payments x ON x.workspace_id = r.workspace_id AND x.id = r.payment_id
     WHERE x.id IS NULL OR x.kind <> 'pix_med_return' OR x.amount_minor <> r.amount_minor
        OR x.party_id IS DISTINCT FROM r.party_id OR r.shortfall_minor < 0 OR r.shortfall_minor > r.amount_minor
        OR r.outstanding_minor < 0 OR r.outstanding_minor > r.shortfall_minor`,
  delivery_without_event: `SELECT d.id AS subject, 'delivery of event ' || d.event_id || ' to endpoint ' || d.endpoint_id AS detail
      FROM webhook_deliveries d
      LEFT JOIN events e ON e.id = d.event_id AND e.workspace_id = d.workspace_id AND e.environment = d.environment
      LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.workspace_id = d.workspace_id
     WHERE e.id IS NULL OR w.id IS NULL OR e.type <> d.event_type`,
};

/** Statuses from which `to` can be reached (itself included), by PAYMENT_TRANSITIONS. */
export function statusesLeadingTo(to: PaymentStatus): PaymentStatus[] {
  return PAYMENT_STATUSES.filter((from) => {
    const seen = new Set<PaymentStatus>([from]);
    const queue: PaymentStatus[] = [from];
    while (queue.length) {
      for (const next of PAYMENT_TRANSITIONS[queue.shift()!]) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return seen.has(to);
  });
}

/**
 * Payment events: each names a payment of its workspace, says the status its type names, is the only
 * one of its type for that payment, and names a status on the way to the payment's current one; and
 * the current status has its event.
 */
export function paymentEventsSql(): { sql: string; params: unknown[] } {
  const pairs = PAYMENT_STATUSES.flatMap((to) => statusesLeadingTo(to).map((from) => `${from}>${to}`));
  const types = PAYMENT_STATUSES.map((status) => `payment.${status}`);
  return {
    params: [types, pairs],
    sql: `WITH ev AS (
        SELECT e.workspace_id, e.environment, e.payload->'data'->'object'->>'id' AS payment_id, substr(e.type, 9) AS status,
               count(*) AS n, bool_and(coalesce(e.payload->'data'->'object'->>'status' = substr(e.type, 9), false)) AS consistent
          FROM events e WHERE e.type = ANY($1::text[]) GROUP BY 1, 2, 3, 4)
      SELECT ev.payment_id AS subject, 'event payment.' || ev.status || CASE
               WHEN x.id IS NULL THEN ' of no payment of its workspace'
               WHEN ev.n > 1 THEN ' emitted ' || ev.n || ' times'
               WHEN NOT ev.consistent THEN ' carrying another status'
               ELSE ' but the payment is ' || x.status END AS detail
        FROM ev LEFT JOIN payments x ON x.id::text = ev.payment_id AND x.workspace_id = ev.workspace_id AND x.environment = ev.environment
       WHERE x.id IS NULL OR ev.n > 1 OR NOT ev.consistent OR NOT (ev.status || '>' || x.status = ANY($2::text[]))
      UNION ALL
      SELECT x.id::text AS subject, x.status || ' without its payment.' || x.status || ' event' AS detail
        FROM payments x WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.payment_id = x.id::text AND ev.workspace_id = x.workspace_id AND ev.status = x.status)`,
  };
}

export const runInvariant = (q: Queryable, sql: string, params: unknown[], limit: number) =>
  findings(q, sql, params, limit);

export interface PaymentLedgerRow {
  id: string;
  kind: PaymentKind;
  status: PaymentStatus;
  currency: string;
  network: string | null;
  amount_minor: bigint;
  fee_minor: bigint;
  target_currency: string | null;
  target_amount: string | null;
  fee_currency: string | null;
  journals: bigint;
  nets: string | null;
  outstanding: bigint | null;
  to_suspense: boolean | null;
}

/** A page of payments, by id, each with its journals summarised as nets per account class. */
export async function paymentLedgerPage(
  q: Queryable,
  after: string,
  size: number,
): Promise<PaymentLedgerRow[]> {
  const { rows } = await q.query<PaymentLedgerRow>(
    `SELECT x.id, x.kind, x.status, x.currency, x.network, x.amount_minor, x.fee_minor, x.target_currency,
            x.metadata->>'target_amount_minor' AS target_amount, x.metadata->>'fee_currency' AS fee_currency,
            (SELECT r.outstanding_minor FROM pix_med_returns r
              WHERE r.workspace_id = x.workspace_id AND r.payment_id = x.id) AS outstanding,
            (x.kind = 'pix_refund' AND x.metadata ? 'held_return') AS to_suspense,
            (SELECT count(*) FROM ledger_journals j WHERE j.workspace_id = x.workspace_id
                AND j.reference_type = 'payment' AND j.reference_id = x.id::text)::bigint AS journals,
            (SELECT string_agg(n.cls || '=' || n.net, ',') FROM (
               SELECT CASE WHEN p.party_id IS NULL THEN 's:' || p.kind || ':' || p.currency || ':' || coalesce(a.network, '')
                           WHEN p.party_id = x.party_id THEN 'p:' || p.kind || ':' || p.currency
                           ELSE 'o:' || p.kind || ':' || p.currency END AS cls,
                      sum(${signed}) AS net
                 FROM ledger_journals j
                 JOIN ledger_postings p ON p.workspace_id = j.workspace_id AND p.journal_id = j.id
                 JOIN ledger_accounts a ON a.workspace_id = p.workspace_id AND a.id = p.account_id
                WHERE j.workspace_id = x.workspace_id AND j.reference_type = 'payment' AND j.reference_id = x.id::text
                GROUP BY 1) n) AS nets
       FROM payments x WHERE x.id > $1 ORDER BY x.id LIMIT ${size}`,
    [after],
  );
  return rows;
}
