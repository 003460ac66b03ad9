/**
 * The checks of `lastro verify` over the payments whose amount another record fixes: a due-date
 * charge's (pix_due_charges, src/modules/pix/due-*.ts) and a Pix Automático cycle's
 * (subscription_cycles, src/modules/subscriptions). Read-only.
 */
import type { Queryable } from '../../db/types.ts';
import { amountDue, type DueTerms } from '../pix/service.ts';

/** A violation as repo.ts's Finding (not imported: repo.ts imports this file). */
type Finding = { subject: string; detail: string };

export const RECURRING_INVARIANTS: Record<string, string> = {
  // A due-date charge is a pix_cash_in payment; paid, it holds the amount recorded as due that day,
  // and only a paid one has that record.
  due_charge_payment: `SELECT d.payment_id::text AS subject, CASE
             WHEN x.id IS NULL THEN 'a due-date charge without its payment'
             WHEN x.kind <> 'pix_cash_in' THEN 'a due-date charge whose payment is ' || x.kind
             WHEN x.status NOT IN ('completed', 'refunded') THEN x.status || ' with an amount due recorded as paid'
             WHEN d.amount_due_minor IS NULL THEN 'paid ' || x.amount_minor || ' without the amount due recorded'
             ELSE 'paid ' || x.amount_minor || ', the amount due recorded is ' || d.amount_due_minor END AS detail
      FROM pix_due_charges d
      LEFT JOIN payments x ON x.workspace_id = d.workspace_id AND x.id = d.payment_id AND x.environment = d.environment
     WHERE x.id IS NULL OR x.kind <> 'pix_cash_in'
        OR (x.status IN ('completed', 'refunded') AND d.amount_due_minor IS DISTINCT FROM x.amount_minor)
        OR (x.status NOT IN ('completed', 'refunded') AND (d.amount_due_minor IS NOT NULL OR d.paid_on IS NOT NULL))`,
  // Each paid cycle has its own payment, paid, of the cycle's amount; each paid cycle payment is the
  // payment of exactly one paid cycle (a payment credited twice, or after its cycle ended, is named).
  subscription_cycle_payment: `SELECT c.subscription_id || '#' || c.sequence AS subject,
           'paid cycle of ' || c.amount_minor || '; its payment: '
           || coalesce(x.kind || ' ' || x.status || ' of ' || x.amount_minor, 'none') AS detail
      FROM subscription_cycles c
      LEFT JOIN payments x ON x.workspace_id = c.workspace_id AND x.id = c.payment_id AND x.environment = c.environment
     WHERE c.status = 'paid' AND (x.id IS NULL OR x.kind <> 'pix_automatic'
           OR x.status NOT IN ('completed', 'refunded') OR x.amount_minor <> c.amount_minor)
    UNION ALL
    SELECT x.id::text, 'pix_automatic ' || x.status || ' is the payment of ' || count(c.sequence) || ' paid cycles'
      FROM payments x
      LEFT JOIN subscription_cycles c ON c.workspace_id = x.workspace_id AND c.payment_id = x.id AND c.status = 'paid'
     WHERE x.kind = 'pix_automatic' AND x.status IN ('completed', 'refunded')
     GROUP BY x.workspace_id, x.id, x.status HAVING count(c.sequence) <> 1`,
};

interface PaidDueRow {
  payment_id: string;
  nominal_minor: bigint;
  due_date: string;
  paid_on: string;
  amount_due_minor: bigint;
  terms: DueTerms;
}

/**
 * Each paid due-date charge whose day is recorded: the amount recorded as due is what its terms ask
 * on that day (recomputed here by the PIX module's rules, the ones it charged by).
 */
export async function dueChargeAmounts(
  q: Queryable,
  limit: number,
): Promise<{ name: string; violations: number; examples: Finding[] }> {
  const result = { name: 'due_charge_amount', violations: 0, examples: [] as Finding[] };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await q.query<PaidDueRow>(
      `SELECT d.payment_id, d.nominal_minor, to_char(d.due_date, 'YYYY-MM-DD') AS due_date,
              to_char(d.paid_on, 'YYYY-MM-DD') AS paid_on, d.amount_due_minor, d.terms
         FROM pix_due_charges d
        WHERE d.paid_on IS NOT NULL AND d.amount_due_minor IS NOT NULL AND d.payment_id > $1
        ORDER BY d.payment_id LIMIT 2000`,
      [after],
    );
    for (const row of rows) {
      const charge = { nominalMinor: BigInt(row.nominal_minor), dueDate: row.due_date, terms: row.terms };
      const due = amountDue(charge, row.paid_on).total_minor;
      if (due !== BigInt(row.amount_due_minor) && result.violations++ < limit)
        result.examples.push({
          subject: row.payment_id,
          detail: `recorded ${row.amount_due_minor} due on ${row.paid_on}; its terms ask ${due}`,
        });
    }
    if (rows.length < 2000) return result;
    after = rows.at(-1)!.payment_id;
  }
}
