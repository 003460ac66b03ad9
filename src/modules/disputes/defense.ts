/**
 * A merchant's defense: sent to the PSP first (live), outside any transaction, then recorded. A PSP
 * that cannot be reached answers 503 provider_unavailable and nothing is recorded, so the merchant
 * sends it again; the same defense sent again once recorded answers the dispute as it is.
 */
import type { Tx } from '../../db/types.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { disputeNow } from './clock.ts';
import { type DisputeRow, findDispute, recordDefense } from './repo.ts';
import type { DefenseInput, DisputeView } from './schemas.ts';
import { disputeView } from './view.ts';

type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

const sameDefense = (row: DisputeRow, text: string, evidence: string[]) =>
  row.defense_text === text && JSON.stringify(row.defense_evidence ?? []) === JSON.stringify(evidence);

/** Under review by a defense the PSP took but whose record was lost: the merchant's retry records it. */
const unrecorded = (row: DisputeRow) => row.status === 'under_review' && row.defended_at === null;

/** Why the dispute takes no defense now, or undefined when it does. */
function refusal(row: DisputeRow, now: Date): string | undefined {
  if (unrecorded(row)) return undefined;
  if (row.status !== 'open') return `The dispute is ${row.status}: it takes no defense.`;
  if (now.getTime() > row.deadline_at.getTime())
    return `The deadline for a defense passed at ${row.deadline_at.toISOString()}.`;
  return undefined;
}

export async function submitDefense(
  ctx: Ctx,
  input: { id: string } & DefenseInput,
  write: Write,
): Promise<DisputeView> {
  const { deps, caller } = ctx;
  const scope = { workspaceId: caller.workspaceId, environment: caller.environment, partyId: caller.partyId };
  const evidence = input.evidence ?? [];
  const row = await findDispute(deps.db, scope, input.id);
  if (!row) throw notFound('Dispute');
  if (sameDefense(row, input.text, evidence)) return write(async () => disputeView(row));
  const why = refusal(row, await disputeNow(deps, scope));
  if (why) throw new AppError('invalid_state', why);
  if (caller.environment === 'live' && !unrecorded(row)) {
    const provider = deps.providers.get('pix', 'live');
    if (!provider.submitDefense)
      throw new AppError('provider_unavailable', 'The live PIX provider takes no defense through its API.');
    await provider.submitDefense({ infractionId: row.infraction_id, text: input.text, evidence });
  }
  return write(async (tx) => {
    const locked = await findDispute(tx, scope, input.id, true);
    if (!locked) throw notFound('Dispute');
    if (sameDefense(locked, input.text, evidence)) return disputeView(locked);
    const lockedWhy = refusal(locked, await disputeNow(deps, scope, tx));
    if (lockedWhy) throw new AppError('invalid_state', lockedWhy);
    const at = deps.clock.now();
    const defended = await recordDefense(tx, locked, { text: input.text, evidence, at });
    const view = disputeView(defended);
    await emitEvent(tx, {
      workspaceId: scope.workspaceId,
      environment: scope.environment,
      type: 'dispute.updated',
      object: view,
      at,
    });
    return view;
  });
}
