import { maskDocument } from '../providers/pix/keys.ts';

/**
 * The one place a counterparty's document is masked (to its last two characters): a payment is read,
 * listed, stored as an idempotent answer, put in events and sent by webhooks only masked, and events
 * are plain JSON kept for ever. A payment is also stored masked; what was stored before that (payment
 * rows, event payloads, sealed idempotent answers) is masked on the way out. Nothing needs the whole
 * document back: the checkout keeps it sealed, with its keyed hash for search, in its own record.
 */
export function maskCounterparty(
  counterparty: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!counterparty) return null;
  const { document } = counterparty;
  return typeof document === 'string' ? { ...counterparty, document: maskDocument(document) } : counterparty;
}

/**
 * `value` with its counterparty's document masked when it is an object carrying one (a payment as the
 * API answers it), else `value` itself: for stored copies read back as they were written (an event's
 * object, a replayed answer), which may predate payments being stored masked.
 */
export function withCounterpartyMasked<T>(value: T): T {
  if (typeof value !== 'object' || value === null || !('counterparty' in value)) return value;
  const { counterparty } = value as { counterparty: unknown };
  if (typeof counterparty !== 'object' || counterparty === null || Array.isArray(counterparty)) return value;
  return { ...value, counterparty: maskCounterparty(counterparty as Record<string, unknown>) };
}
