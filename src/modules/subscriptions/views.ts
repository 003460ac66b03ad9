/** Subscriptions and cycles as the API and the events show them. */
import type { Tx } from '../../db/types.ts';
import { formatAmount } from '../../ledger/currency.ts';
import type { EventType } from '../../platform/event-types.ts';
import { emitEvent } from '../../platform/outbox.ts';
import { iso } from '../../platform/schema.ts';
import { maskDocument } from '../../providers/pix/keys.ts';
import type { AttemptRecord, CycleRow, SubscriptionRow } from './repo.ts';
import { dueDateOf } from './schedule.ts';
import type { CycleView, SubscriptionView } from './schemas.ts';

/** The next cycle to charge, or null once the subscription has ended or passed its end date. */
export function nextDueDate(row: SubscriptionRow, cycles: readonly CycleRow[]): string | null {
  if (row.status !== 'active' && row.status !== 'pending_authorisation') return null;
  const due = dueDateOf(row.start_date, row.frequency, cycles.length + 1);
  return row.end_date && due > row.end_date ? null : due;
}

export function subscriptionView(row: SubscriptionRow, cycles: readonly CycleRow[]): SubscriptionView {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    environment: row.environment,
    party_id: row.party_id,
    status: row.status,
    debtor: {
      name: row.debtor_name,
      document: maskDocument(row.debtor_document),
      document_type: row.debtor_document_type,
    },
    amount_minor: row.amount_minor === null ? null : formatAmount(row.amount_minor),
    minimum_minor: row.minimum_minor === null ? null : formatAmount(row.minimum_minor),
    currency: 'BRL',
    frequency: row.frequency,
    start_date: row.start_date,
    end_date: row.end_date,
    retry_policy: row.retry_policy,
    description: row.description,
    cancelled_by: row.cancelled_by,
    next_due_date: nextDueDate(row, cycles),
    cycles_paid: cycles.filter((cycle) => cycle.status === 'paid').length,
    next_amount_minor: row.next_amount_minor === null ? null : formatAmount(row.next_amount_minor),
    payer_maximum_minor: row.payer_maximum_minor === null ? null : formatAmount(row.payer_maximum_minor),
    metadata: row.metadata ?? {},
    authorised_at: iso(row.authorised_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export const cycleView = (row: CycleRow): CycleView => ({
  subscription_id: row.subscription_id,
  sequence: row.sequence,
  due_date: row.due_date,
  amount_minor: formatAmount(row.amount_minor),
  status: row.status,
  payment_id: row.payment_id,
  attempts: row.attempts,
  next_attempt_date: row.next_attempt_date,
  attempt_history: row.attempt_history,
  last_failure: lastFailure(row.attempt_history),
});

function lastFailure(history: readonly AttemptRecord[]): CycleView['last_failure'] {
  const failed = history.findLast((attempt) => attempt.outcome === 'failed');
  return failed ? { rejection_code: failed.rejection_code, rejection_reason: failed.rejection_reason } : null;
}

type SubscriptionEvent = Extract<EventType, `subscription.${string}`>;

/** Emits a subscription's event in the change's own transaction. */
export async function emitSubscriptionEvent(
  tx: Tx,
  type: SubscriptionEvent,
  row: SubscriptionRow,
  object: SubscriptionView | (CycleView & { party_id: string }),
  at: Date,
): Promise<void> {
  await emitEvent(tx, { workspaceId: row.workspace_id, environment: row.environment, type, object, at });
}
