import type { Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';

export const EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
  'quote.executed',
  'payment_link.payment.completed',
  'wallet.created',
  'customer.created',
  'customer.updated',
  'kyc.updated',
  'kyc.rfi.created',
  'subaccount.created',
  'api_key.revoked',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EmittedEvent {
  id: string;
  type: EventType;
  created_at: string;
  environment: Environment;
  workspace_id: string;
  data: { object: unknown };
}

type EventListener = (tx: Tx, event: EmittedEvent) => Promise<void>;
const listeners: EventListener[] = [];

/** Lets a module act on every event inside the emitting transaction (webhooks create their deliveries here). */
export function onEventEmitted(listener: EventListener): void {
  listeners.push(listener);
}

/**
 * Writes an event into the outbox. It takes a Tx so that no change can be committed
 * without its event, nor an event without its change.
 */
export async function emitEvent(
  tx: Tx,
  input: { workspaceId: string; environment: Environment; type: EventType; object: unknown; at?: Date },
): Promise<EmittedEvent> {
  const event: EmittedEvent = {
    id: newId(),
    type: input.type,
    created_at: (input.at ?? new Date()).toISOString(),
    environment: input.environment,
    workspace_id: input.workspaceId,
    data: { object: input.object },
  };
  await tx.query(
    'INSERT INTO events (id, workspace_id, environment, type, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [event.id, input.workspaceId, event.environment, event.type, JSON.stringify(event), event.created_at],
  );
  for (const listener of listeners) await listener(tx, event);
  return event;
}
