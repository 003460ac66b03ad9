/**
 * KYC cases and their requests for information (RFI). A case is opened `pending`; while any RFI is
 * open it is `in_review`, and back to `pending` once all are answered; compliance (the operator's CLI,
 * or the sandbox helper in sandbox) approves or rejects it, which closes its RFIs. Every change of a
 * case's status sets the party's KYC status of that environment and emits kyc.updated, in one transaction.
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction, recordAudit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import * as cases from './kyc-repo.ts';
import { setKycStatus } from './repo.ts';
import type { CaseStatus, KycCaseView, RfiItemView } from './schemas.ts';
import { owningParty, partyFilter } from './service.ts';

export const caseView = (row: cases.CaseRow): KycCaseView => ({
  id: row.id,
  workspace_id: row.workspace_id,
  party_id: row.party_id,
  environment: row.environment,
  status: row.status,
  decision_reason: row.decision_reason,
  decided_at: iso(row.decided_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export const rfiView = (row: cases.RfiRow): RfiItemView => ({
  id: row.id,
  kyc_case_id: row.kyc_case_id,
  field_name: row.field_name,
  description: row.description,
  status: row.status,
  answered_at: iso(row.answered_at),
  created_at: iso(row.created_at),
});

const scopeOf = (ctx: Ctx): cases.CaseScope => ({
  workspaceId: ctx.caller.workspaceId,
  environment: ctx.caller.environment,
  partyId: ctx.caller.partyId,
});

const undecided = (status: CaseStatus) => status === 'pending' || status === 'in_review';

async function lockCase(tx: Tx, ctx: Ctx, id: string): Promise<cases.CaseRow> {
  const row = await cases.findCase(tx, scopeOf(ctx), id, { forUpdate: true });
  if (!row) throw notFound('KYC case');
  return row;
}

/** Moves a case to `status`, with the party's KYC status of the environment and kyc.updated beside it. */
async function moveCase(
  tx: Tx,
  ctx: Ctx,
  row: cases.CaseRow,
  status: CaseStatus,
  decision?: { reason: string | null },
): Promise<cases.CaseRow> {
  const at = ctx.deps.clock.now();
  const moved = await cases.updateCase(tx, row, {
    status,
    reason: decision?.reason,
    decidedAt: decision ? at : null,
    at,
  });
  await setKycStatus(tx, row.workspace_id, row.party_id, row.environment, status, at);
  await emitEvent(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    type: 'kyc.updated',
    object: caseView(moved),
    at,
  });
  return moved;
}

export async function openCase(tx: Tx, ctx: Ctx, input: { party_id?: string }): Promise<KycCaseView> {
  const { caller, deps } = ctx;
  const partyId = await owningParty(tx, caller, input.party_id);
  const at = deps.clock.now();
  const row = await cases.insertCase(tx, {
    id: newId(),
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    partyId,
    at,
  });
  if (!row)
    throw new AppError('conflict', 'This party already has a KYC case under way in this environment.');
  await setKycStatus(tx, row.workspace_id, partyId, row.environment, 'pending', at);
  const view = caseView(row);
  await emitEvent(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    type: 'kyc.updated',
    object: view,
    at,
  });
  await auditAction(tx, ctx, 'kyc.case_opened', { type: 'kyc_case', id: row.id }, { party_id: partyId });
  return view;
}

export async function getCase(q: Queryable, ctx: Ctx, input: { id: string }): Promise<KycCaseView> {
  const row = await cases.findCase(q, scopeOf(ctx), input.id);
  if (!row) throw notFound('KYC case');
  return caseView(row);
}

export async function listCases(
  q: Queryable,
  ctx: Ctx,
  input: PageRequest & { party_id?: string },
): Promise<KycCaseView[]> {
  const partyId = await partyFilter(q, ctx.caller, input.party_id);
  const rows = await cases.listCases(q, scopeOf(ctx), partyId, input);
  return rows.map(caseView);
}

export async function createRfi(
  tx: Tx,
  ctx: Ctx,
  input: { id: string; field_name: string; description: string },
): Promise<RfiItemView> {
  const row = await lockCase(tx, ctx, input.id);
  if (!undecided(row.status)) {
    throw new AppError('invalid_state', `A ${row.status} KYC case takes no more requests for information.`);
  }
  const at = ctx.deps.clock.now();
  const rfi = await cases.insertRfi(tx, {
    id: newId(),
    workspaceId: row.workspace_id,
    caseId: row.id,
    fieldName: input.field_name,
    description: input.description,
    at,
  });
  if (row.status !== 'in_review') await moveCase(tx, ctx, row, 'in_review');
  const view = rfiView(rfi);
  await emitEvent(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    type: 'kyc.rfi.created',
    object: view,
    at,
  });
  await auditAction(tx, ctx, 'kyc.rfi_created', { type: 'kyc_case', id: row.id }, { rfi_id: rfi.id });
  return view;
}

export async function listRfis(
  q: Queryable,
  ctx: Ctx,
  input: PageRequest & { id: string },
): Promise<RfiItemView[]> {
  const row = await cases.findCase(q, scopeOf(ctx), input.id);
  if (!row) throw notFound('KYC case');
  return (await cases.listRfis(q, row.workspace_id, row.id, input)).map(rfiView);
}

export async function answerRfi(
  tx: Tx,
  ctx: Ctx,
  input: { id: string; rfi_id: string; answer: string },
): Promise<RfiItemView> {
  const row = await lockCase(tx, ctx, input.id);
  const rfi = await cases.findRfi(tx, row.workspace_id, row.id, input.rfi_id);
  if (!rfi) throw notFound('RFI item');
  if (rfi.status !== 'open') throw new AppError('invalid_state', `This RFI item is already ${rfi.status}.`);
  const answered = await cases.answerRfi(tx, rfi, ctx.deps.sealer.seal(input.answer), ctx.deps.clock.now());
  if (row.status === 'in_review' && (await cases.countOpenRfis(tx, row.workspace_id, row.id)) === 0) {
    await moveCase(tx, ctx, row, 'pending');
  }
  await auditAction(tx, ctx, 'kyc.rfi_answered', { type: 'kyc_case', id: row.id }, { rfi_id: rfi.id });
  return rfiView(answered);
}

export type KycDecision = 'approve' | 'reject';

/**
 * Compliance decides a case: approval needs every RFI answered; rejection may come at any time before
 * a decision. `by` says who decided: the operator (CLI) or the sandbox helper.
 */
export async function decideCase(
  tx: Tx,
  ctx: Ctx,
  input: { id: string; decision: KycDecision; reason?: string; by: 'operator' | 'sandbox_helper' },
): Promise<KycCaseView> {
  const row = await lockCase(tx, ctx, input.id);
  if (!undecided(row.status)) throw new AppError('invalid_state', `This KYC case is already ${row.status}.`);
  if (input.decision === 'approve' && (await cases.countOpenRfis(tx, row.workspace_id, row.id)) > 0) {
    throw new AppError('invalid_state', 'Every request for information must be answered before approval.');
  }
  await cases.closeRfis(tx, row.workspace_id, row.id, ctx.deps.clock.now());
  const status = input.decision === 'approve' ? 'approved' : 'rejected';
  const decided = await moveCase(tx, ctx, row, status, { reason: input.reason ?? null });
  const metadata = { party_id: row.party_id, by: input.by, reason: input.reason ?? null };
  if (input.by === 'operator') {
    // The operator stands outside every workspace: the entry names the system, not a user or key.
    await recordAudit(tx, {
      workspaceId: row.workspace_id,
      environment: row.environment,
      actorType: 'system',
      action: `kyc.${status}`,
      targetType: 'kyc_case',
      targetId: row.id,
      requestId: ctx.requestId,
      metadata,
    });
  } else {
    await auditAction(tx, ctx, `kyc.${status}`, { type: 'kyc_case', id: row.id }, metadata);
  }
  return caseView(decided);
}

/** The case's workspace and environment, for the operator's CLI (which has no workspace of its own). */
export async function findCaseForOperator(q: Queryable, id: string) {
  const row = await cases.findCaseAnywhere(q, id);
  if (!row) throw notFound('KYC case');
  return row;
}
