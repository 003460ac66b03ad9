/** Every event type Lastro emits; imports nothing, so the dashboard can share it. */
export const EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
  'payment.updated',
  'quote.executed',
  'payment_link.payment.completed',
  'wallet.created',
  'customer.created',
  'customer.updated',
  'kyc.updated',
  'kyc.rfi.created',
  'subaccount.created',
  'api_key.revoked',
  'reconciliation.completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
