/**
 * Reconciliation: for a window and an environment, the PIX books set beside the PSP's records. The PSP
 * is one account for the whole environment, so its PIX are matched to workspaces by txid (a charge of
 * ours) or end-to-end id (a cash-in, a PIX held without a charge); each difference is a finding:
 *
 *   missing_pix           the PSP received a PIX the books do not hold (or hold on a charge still unpaid)
 *   amount_mismatch       the books hold it for another amount
 *   unknown_to_psp        the books hold a paid cash-in the PSP does not know
 *   return_not_reflected  the PSP made a MED devolução the books have not applied
 *   status_mismatch       a payout or refund of the window stands otherwise at the PSP
 *
 * It only reports: money moves by the flows that own it (a MED return through applyPspReturns, which
 * the returns poll runs; a transfer through the outbound reconcile sweep), so a finding is what those
 * did not fix and an operator must look at.
 */
import type { Queryable } from '../../../db/types.ts';
import type { Deps, Environment } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { type ProgressReporter, SILENT } from '../../../platform/progress.ts';
import type { PixProvider, ReceivedPix } from '../../../providers/pix/provider.ts';
import { isMedNatureza } from '../med-returns.ts';
import {
  type BookedCashIn,
  cashInsNamed,
  cashInsPaidIn,
  medReturnsNamed,
  transfersCreatedIn,
  unassignedNamed,
} from './repo.ts';
import { type Finding, finding, NO_WORKSPACE, type ReconcileReport } from './report.ts';
import { storeRun } from './store.ts';

export interface ReconcileInput {
  environment: Environment;
  from: Date;
  to: Date;
  trigger: 'daily' | 'on_demand' | 'cli';
  /** Only this workspace's findings are stored (a run a workspace asked for). */
  workspaceId?: string;
}

/** Compares the window, stores the run (a row per workspace) and announces it; answers the report. */
export async function reconcile(
  deps: Deps,
  input: ReconcileInput,
  progress: ProgressReporter = SILENT,
): Promise<ReconcileReport> {
  if (input.from >= input.to) throw new AppError('invalid_request', 'The window must end after it starts.');
  const provider = deps.providers.get('pix', input.environment);
  if (!provider.listReceived)
    throw new AppError('provider_unavailable', `The PIX provider ${provider.name} cannot list received PIX.`);
  const task = progress.task('reconcile', 5);
  task.step('listing the PIX the PSP received');
  const received = await provider.listReceived({ from: input.from, to: input.to });
  const workspaces = new Map<string, { pspPix: number; transfers: number }>();
  const touch = (workspaceId: string | null, what: 'pspPix' | 'transfers') => {
    const counts = workspaces.get(workspaceId ?? NO_WORKSPACE) ?? { pspPix: 0, transfers: 0 };
    counts[what] += 1;
    workspaces.set(workspaceId ?? NO_WORKSPACE, counts);
  };
  task.step(`matching ${received.length} received PIX with the books`);
  const findings = await receivedFindings(deps.db, input.environment, received, (ws) => touch(ws, 'pspPix'));
  task.step('checking the booked cash-ins');
  findings.push(...(await bookedFindings(deps.db, provider, input, received)));
  task.step('asking the PSP about the transfers');
  findings.push(...(await transferFindings(deps.db, provider, input, (ws) => touch(ws, 'transfers'))));
  const report: ReconcileReport = {
    runId: newId(),
    environment: input.environment,
    from: input.from,
    to: input.to,
    pspPix: received.length,
    transfers: [...workspaces.values()].reduce((sum, counts) => sum + counts.transfers, 0),
    findings: input.workspaceId ? findings.filter((f) => f.workspaceId === input.workspaceId) : findings,
    workspaces,
    ok: false,
  };
  // Every workspace a finding names gets its row, even one with nothing else in the window (a
  // cash-in the PSP does not know is the finding that most needs reading).
  for (const f of findings)
    if (!workspaces.has(f.workspaceId)) workspaces.set(f.workspaceId, { pspPix: 0, transfers: 0 });
  // The nil workspace's row is stored even when empty: it says the window was reconciled.
  if (!workspaces.has(NO_WORKSPACE)) workspaces.set(NO_WORKSPACE, { pspPix: 0, transfers: 0 });
  if (input.workspaceId) {
    for (const id of workspaces.keys()) if (id !== input.workspaceId) workspaces.delete(id);
    if (!workspaces.has(input.workspaceId)) workspaces.set(input.workspaceId, { pspPix: 0, transfers: 0 });
  }
  report.ok = report.findings.length === 0;
  task.step('storing the run');
  await storeRun(deps, report, input.trigger);
  task.done(report.ok ? 'the books agree with the PSP' : `${report.findings.length} finding(s)`);
  return report;
}

/** Every PIX the PSP received in the window, set beside the cash-in or held PIX that explains it. */
async function receivedFindings(
  q: Queryable,
  environment: Environment,
  received: readonly ReceivedPix[],
  touch: (workspaceId: string | null) => void,
): Promise<Finding[]> {
  const e2es = received.map((pix) => pix.endToEndId);
  const cashIns = await cashInsNamed(
    q,
    environment,
    e2es,
    received.flatMap((pix) => pix.txid ?? []),
  );
  const byEndToEnd = new Map(cashIns.flatMap((c) => (c.pix_tx_id ? [[c.pix_tx_id, c] as const] : [])));
  const byTxid = new Map(cashIns.flatMap((c) => (c.pix_txid ? [[c.pix_txid, c] as const] : [])));
  const held = new Map((await unassignedNamed(q, environment, e2es)).map((h) => [h.end_to_end_id, h]));
  const medIds = received.flatMap((pix) => pix.returns.filter(isPspMed).map((r) => r.id));
  const applied = await medReturnsNamed(q, environment, medIds);
  const findings: Finding[] = [];
  for (const pix of received) {
    const charge = byEndToEnd.get(pix.endToEndId) ?? (pix.txid ? byTxid.get(pix.txid) : undefined);
    const hold = held.get(pix.endToEndId);
    const workspaceId = charge?.workspace_id ?? hold?.workspace_id ?? pix.keyOwner ?? null;
    touch(workspaceId);
    const booked = bookedAmount(pix, charge) ?? hold?.amount_minor;
    const at = {
      endToEndId: pix.endToEndId,
      paymentId: charge?.id ?? null,
      foundMinor: pix.amountMinor ?? null,
    };
    if (booked === undefined)
      findings.push(
        finding(workspaceId, 'missing_pix', {
          ...at,
          expectedStatus: charge?.status ?? null,
          foundStatus: 'received',
          detail: charge
            ? `the PSP received ${pix.endToEndId} on charge ${charge.id}, which the books show ${charge.status}`
            : `the PSP received ${pix.endToEndId}${pix.txid ? ` (txid ${pix.txid})` : ''}, which no charge or held PIX explains`,
        }),
      );
    else if (booked !== pix.amountMinor)
      findings.push(
        finding(workspaceId, 'amount_mismatch', {
          ...at,
          expectedMinor: booked,
          detail: `the books hold ${pix.endToEndId} for ${booked}, the PSP for ${pix.amountMinor ?? 'no amount'}`,
        }),
      );
    for (const r of pix.returns.filter((r) => isPspMed(r) && !applied.has(r.id)))
      findings.push(
        finding(workspaceId, 'return_not_reflected', {
          ...at,
          foundMinor: r.amountMinor ?? null,
          foundStatus: 'returned',
          detail: `the PSP returned ${r.amountMinor ?? '?'} of ${pix.endToEndId} (${r.natureza}, devolução ${r.id}); the books have not applied it`,
        }),
      );
  }
  return findings;
}

const isPspMed = (r: ReceivedPix['returns'][number]) => isMedNatureza(r.natureza) && r.status === 'completed';

/** What the books credited for this PIX on its charge: only a paid charge, and only by this PIX. */
function bookedAmount(pix: ReceivedPix, charge: BookedCashIn | undefined): bigint | undefined {
  if (!charge || (charge.status !== 'completed' && charge.status !== 'refunded')) return undefined;
  return charge.pix_tx_id === pix.endToEndId ? charge.amount_minor : undefined;
}

/**
 * Cash-ins the books say were paid in the window that the PSP's list lacks. The PSP's horario and
 * our completed_at can fall either side of the window's edge, so each is asked for by its end-to-end
 * id before it is reported.
 */
async function bookedFindings(
  q: Queryable,
  provider: PixProvider,
  input: ReconcileInput,
  received: readonly ReceivedPix[],
): Promise<Finding[]> {
  const known = new Set(received.map((pix) => pix.endToEndId));
  const findings: Finding[] = [];
  for (const cashIn of await cashInsPaidIn(q, input.environment, input.from, input.to)) {
    const e2e = cashIn.pix_tx_id!;
    if (known.has(e2e)) continue;
    // A PSP that cannot answer is not a PSP that does not know it: the error ends the run, unstored.
    const found = await provider.getReceivedPix?.(e2e);
    if (found) continue;
    findings.push(
      finding(cashIn.workspace_id, 'unknown_to_psp', {
        endToEndId: e2e,
        paymentId: cashIn.id,
        expectedMinor: cashIn.amount_minor,
        expectedStatus: cashIn.status,
        detail: `the books credited ${e2e} (payment ${cashIn.id}); the PSP does not know it`,
      }),
    );
  }
  return findings;
}

/** Payouts and refunds created in the window, each asked of the PSP; one that cannot be asked is a finding. */
async function transferFindings(
  q: Queryable,
  provider: PixProvider,
  input: ReconcileInput,
  touch: (workspaceId: string) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const t of await transfersCreatedIn(q, input.environment, input.from, input.to)) {
    touch(t.workspace_id);
    const direction = t.kind === 'pix_refund' ? 'refund' : 'payout';
    const theirs = await provider
      .getStatus(t.id, { direction, originalEndToEndId: t.original_end_to_end_id })
      .then((answer) => answer.status as string)
      .catch((error: Error) => `unreadable: ${error.message}`.slice(0, 200));
    if (statusesAgree(t.status, theirs)) continue;
    findings.push(
      finding(t.workspace_id, 'status_mismatch', {
        paymentId: t.id,
        expectedMinor: t.amount_minor,
        expectedStatus: t.status,
        foundStatus: theirs,
        detail: `${direction} ${t.id} is ${t.status} in the books and ${theirs} at the PSP`,
      }),
    );
  }
  return findings;
}

/** A transfer the books failed may be one the PSP never took, so 'unknown' agrees with 'failed'. */
function statusesAgree(ours: string, theirs: string): boolean {
  return ours === theirs || (ours === 'failed' && theirs === 'unknown');
}
