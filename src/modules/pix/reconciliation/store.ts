/** Storing a reconciliation run, a transaction per workspace (one shard each), and reading it back. */
import type { Queryable } from '../../../db/types.ts';
import type { Deps } from '../../../platform/context.ts';
import { notFound } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { emitEvent } from '../../../platform/outbox.ts';
import type { Ctx } from '../../../platform/request-context.ts';
import {
  type FindingRow,
  findingsOf,
  findRun,
  insertFinding,
  insertRun,
  listRuns,
  type RunRow,
} from './repo.ts';
import { NO_WORKSPACE, type ReconcileReport } from './report.ts';

/** Each workspace's part of the run, with its findings; each real workspace hears reconciliation.completed. */
export async function storeRun(deps: Deps, report: ReconcileReport, trigger: RunRow['trigger']) {
  const at = deps.clock.now();
  // The nil workspace's row goes last: a later round takes it as the day done, so a crash before it
  // leaves the day to be stored again (the workspaces stored already are kept as they were).
  const parts = [...report.workspaces].sort(
    ([a], [b]) => Number(a === NO_WORKSPACE) - Number(b === NO_WORKSPACE),
  );
  for (const [workspaceId, counts] of parts) {
    const findings = report.findings.filter((f) => f.workspaceId === workspaceId);
    const run: RunRow = {
      workspace_id: workspaceId,
      id: report.runId,
      environment: report.environment,
      window_from: report.from,
      window_to: report.to,
      trigger,
      psp_pix: counts.pspPix,
      transfers: counts.transfers,
      findings: findings.length,
      created_at: at,
    };
    await deps.db.transaction(async (tx) => {
      if (!(await insertRun(tx, run))) return;
      for (const f of findings)
        await insertFinding(tx, {
          workspace_id: workspaceId,
          run_id: report.runId,
          id: newId(),
          kind: f.kind,
          end_to_end_id: f.endToEndId,
          payment_id: f.paymentId,
          expected_minor: f.expectedMinor,
          found_minor: f.foundMinor,
          expected_status: f.expectedStatus,
          found_status: f.foundStatus,
          detail: f.detail,
        });
      if (workspaceId !== NO_WORKSPACE)
        await emitEvent(tx, {
          workspaceId,
          environment: report.environment,
          type: 'reconciliation.completed',
          object: runView(run),
          at,
        });
    });
  }
}

export function runView(run: RunRow) {
  return {
    id: run.id,
    object: 'reconciliation_run' as const,
    environment: run.environment,
    from: run.window_from.toISOString(),
    to: run.window_to.toISOString(),
    trigger: run.trigger,
    status: run.findings === 0 ? ('agreed' as const) : ('discrepancies' as const),
    psp_pix_count: run.psp_pix,
    transfers_count: run.transfers,
    findings_count: run.findings,
    created_at: run.created_at.toISOString(),
  };
}

export function findingView(f: FindingRow) {
  return {
    id: f.id,
    kind: f.kind,
    end_to_end_id: f.end_to_end_id,
    payment_id: f.payment_id,
    expected_minor: f.expected_minor === null ? null : String(f.expected_minor),
    found_minor: f.found_minor === null ? null : String(f.found_minor),
    expected_status: f.expected_status,
    found_status: f.found_status,
    detail: f.detail,
  };
}

const scopeOf = (ctx: Ctx) => ({ workspaceId: ctx.caller.workspaceId, environment: ctx.caller.environment });

export async function listReconciliationRuns(
  q: Queryable,
  ctx: Ctx,
  page: { limit?: number; cursor?: string },
) {
  return (await listRuns(q, scopeOf(ctx), page)).map(runView);
}

export async function getReconciliationRun(q: Queryable, ctx: Ctx, input: { id: string }) {
  const run = await findRun(q, scopeOf(ctx), input.id);
  if (!run) throw notFound('Reconciliation run');
  const findings = await findingsOf(q, run.workspace_id, run.id);
  return { ...runView(run), findings: findings.map(findingView) };
}
