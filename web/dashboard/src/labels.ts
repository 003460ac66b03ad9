/**
 * The names of things the API writes as codes or in English: event types (payment.created reads
 * "Pagamento criado") and the descriptions the server gives its own sandbox and unassigned
 * payments, shown by what they are rather than as the server's English.
 */
import { t } from './i18n.ts';

/** Each event type's English name; its Portuguese is in pt.ts like every sentence. */
export const EVENT_NAMES: Record<string, string> = {
  'payment.created': 'Payment created',
  'payment.processing': 'Payment processing',
  'payment.completed': 'Payment completed',
  'payment.failed': 'Payment failed',
  'payment.expired': 'Payment expired',
  'payment.refunded': 'Payment refunded',
  'payment.updated': 'Payment updated',
  'due_charge.updated': 'Due-date charge revised',
  'due_charge.cancelled': 'Due-date charge cancelled',
  'quote.executed': 'Quote executed',
  'payment_link.payment.completed': 'Payment link paid',
  'wallet.created': 'Wallet created',
  'customer.created': 'Customer created',
  'customer.updated': 'Customer updated',
  'kyc.updated': 'KYC updated',
  'kyc.rfi.created': 'KYC information requested',
  'subaccount.created': 'Sub-account created',
  'api_key.revoked': 'API key revoked',
  'reconciliation.completed': 'Reconciliation completed',
  'dispute.opened': 'Dispute opened',
  'dispute.updated': 'Dispute updated',
  'dispute.deadline_approaching': 'Dispute deadline approaching',
  'dispute.closed': 'Dispute closed',
  'subscription.created': 'Subscription created',
  'subscription.authorised': 'Subscription authorised',
  'subscription.refused': 'Subscription refused',
  'subscription.cancelled': 'Subscription cancelled',
  'subscription.expired': 'Subscription expired',
  'subscription.completed': 'Subscription completed',
  'subscription.cycle_scheduled': 'Subscription charge scheduled',
  'subscription.cycle_skipped': 'Subscription charge skipped',
  'subscription.cycle_paid': 'Subscription charge paid',
  'subscription.cycle_retrying': 'Subscription charge retrying',
  'subscription.cycle_failed': 'Subscription charge failed',
};

/** An event type as words; a type this list does not know yet reads as its code. */
export const eventName = (type: string): string => (EVENT_NAMES[type] ? t(EVENT_NAMES[type]) : type);

/** The descriptions the server writes itself, in English, by the payments they describe. */
export const SERVER_DESCRIPTIONS: Record<string, string> = {
  'Simulated PIX cash-in': 'Simulated PIX cash-in',
  'PIX received without a charge': 'PIX received without a charge',
  'Return of a PIX received without a charge': 'Return of a PIX received without a charge',
};

/** A payment's description: the merchant's own text as written, the server's own translated. */
export const describePayment = (description: string | null | undefined): string =>
  description ? (SERVER_DESCRIPTIONS[description] ? t(SERVER_DESCRIPTIONS[description]) : description) : '';
