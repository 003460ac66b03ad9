/**
 * `lastro verify`: checks the books of a live database without stopping it. Everything is read in one
 * REPEATABLE READ, READ ONLY transaction, so the checks see one consistent snapshot while the service
 * keeps writing, and nothing is locked beyond what any reader takes.
 */
import type { Database, Queryable } from '../../db/types.ts';
import { checkChains } from '../../ledger/seal.ts';
import { type ProgressReporter, SILENT } from '../../platform/progress.ts';
import { paymentLedgerProblem } from './payment-rules.ts';
import { dueChargeAmounts } from './recurring.ts';
import { type Finding, INVARIANTS, paymentEventsSql, paymentLedgerPage, runInvariant } from './repo.ts';

export interface CheckResult {
  name: string;
  violations: number;
  /** The first violations found (at most `limit`). */
  examples: Finding[];
}

export interface VerifyReport {
  ok: boolean;
  violations: number;
  checks: CheckResult[];
  counts: {
    journals: number;
    postings: number;
    accounts: number;
    payments: number;
    events: number;
    deliveries: number;
  };
  chain: { workspaces: number; links: number; unsealed: number };
}

async function paymentPostings(q: Queryable, limit: number): Promise<CheckResult & { payments: number }> {
  const result = { name: 'payment_postings', violations: 0, examples: [] as Finding[], payments: 0 };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const page = await paymentLedgerPage(q, after, 2000);
    for (const row of page) {
      result.payments++;
      const nets = new Map<string, bigint>();
      for (const part of row.nets ? row.nets.split(',') : []) {
        const at = part.lastIndexOf('=');
        nets.set(part.slice(0, at), BigInt(part.slice(at + 1)));
      }
      const problem = paymentLedgerProblem({
        kind: row.kind,
        status: row.status,
        currency: row.currency,
        network: row.network,
        amount: row.amount_minor,
        fee: row.fee_minor,
        targetAmount: row.target_amount === null ? null : BigInt(row.target_amount),
        targetCurrency: row.target_currency,
        feeCurrency: row.fee_currency,
        journals: Number(row.journals),
        nets,
        outstanding: row.outstanding,
        toSuspense: row.to_suspense === true,
      });
      if (problem && result.violations++ < limit)
        result.examples.push({ subject: row.id, detail: `${row.kind} ${row.status}: ${problem}` });
    }
    if (page.length < 2000) return result;
    after = page.at(-1)!.id;
  }
}

async function counts(q: Queryable): Promise<VerifyReport['counts']> {
  const { rows } = await q.query<Record<keyof VerifyReport['counts'], bigint>>(
    `SELECT (SELECT count(*) FROM ledger_journals)::bigint AS journals, (SELECT count(*) FROM ledger_postings)::bigint AS postings,
            (SELECT count(*) FROM ledger_accounts)::bigint AS accounts, (SELECT count(*) FROM payments)::bigint AS payments,
            (SELECT count(*) FROM events)::bigint AS events, (SELECT count(*) FROM webhook_deliveries)::bigint AS deliveries`,
  );
  return Object.fromEntries(
    Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]),
  ) as VerifyReport['counts'];
}

/**
 * Runs every check in one snapshot; `limit` bounds the examples kept per check, and `progress` hears
 * of each check as it starts.
 */
export function verifyBooks(
  db: Database,
  limit = 20,
  progress: ProgressReporter = SILENT,
): Promise<VerifyReport> {
  const task = progress.task('verify', Object.keys(INVARIANTS).length + 5);
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const checks: CheckResult[] = [];
    for (const [name, sql] of Object.entries(INVARIANTS)) {
      task.step(name);
      const { total, found } = await runInvariant(tx, sql, [], limit);
      checks.push({ name, violations: total, examples: found });
    }
    task.step('payment_events');
    const events = paymentEventsSql();
    const { total, found } = await runInvariant(tx, events.sql, events.params, limit);
    checks.push({ name: 'payment_events', violations: total, examples: found });
    task.step('payment_postings');
    const { payments: _, ...postings } = await paymentPostings(tx, limit);
    checks.push(postings);
    task.step('due_charge_amount');
    checks.push(await dueChargeAmounts(tx, limit));
    task.step('seal_chain');
    const chain = await checkChains(tx, limit);
    checks.push({
      name: 'seal_chain',
      violations: chain.problems,
      examples: chain.broken.map((b) => ({
        subject: `${b.workspaceId}#${b.seq}`,
        detail: b.journalId ? `journal ${b.journalId}: ${b.issue}` : b.issue,
      })),
    });
    const violations = checks.reduce((sum, check) => sum + check.violations, 0);
    task.step('counts');
    const report: VerifyReport = {
      ok: violations === 0,
      violations,
      checks,
      counts: await counts(tx),
      chain: { workspaces: chain.workspaces, links: chain.links, unsealed: chain.unsealed },
    };
    task.done(violations === 0 ? 'no violations' : `${violations} violation(s)`);
    return report;
  });
}

/** The report as text for a person: one line per check, then the examples of each violation. */
export function formatReport(report: VerifyReport): string {
  const lines = [
    `lastro verify: ${report.ok ? 'OK' : `${report.violations} violation(s)`}`,
    `  ${Object.entries(report.counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  chain: ${report.chain.links} links over ${report.chain.workspaces} workspaces, ${report.chain.unsealed} journals not sealed yet`,
  ];
  for (const check of report.checks) {
    lines.push(
      `  ${check.violations === 0 ? 'ok  ' : 'FAIL'} ${check.name}${check.violations ? ` (${check.violations})` : ''}`,
    );
    for (const example of check.examples) lines.push(`         ${example.subject}: ${example.detail}`);
  }
  return lines.join('\n');
}
