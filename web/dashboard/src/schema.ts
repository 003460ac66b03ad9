/**
 * What the API answers, as the dashboard reads it: each type is the `data` of a route in the SDK's
 * schema (generated from the server's own route schemas), so a renamed or removed field fails the
 * dashboard's typecheck instead of a page. Types only: nothing here reaches the bundle.
 */
import type { ItemOf, paths, ResultOf } from '@lastro/sdk';

import type { ErrorCode } from '@lastro/sdk/generated';

export type { ErrorCode };

/**
 * The body of every refusal: `error` is the code, `details` name the fields it concerns. Written out
 * rather than taken from one route's responses, whose shape (one per status or one for all) is the
 * document generator's choice.
 */
export interface ErrorDetail {
  field: string;
  issue: string;
}
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export type LoginResult = ResultOf<'/v1/auth/login', 'post'>;
export type SignupResult = ResultOf<'/v1/auth/signup', 'post'>;
export type TwoFactorSetup = ResultOf<'/v1/auth/2fa/setup', 'post'>;
/** Turning 2FA on answers the recovery codes, shown once. */
export type TwoFactorEnabled = ResultOf<'/v1/auth/2fa/enable', 'post'> & { recovery_codes: string[] };
export type Workspace = ResultOf<'/v1/{env}/workspace', 'get'>;

export type Balance = ResultOf<'/v1/{env}/balances', 'get'>[number];
export type StatementLine = ItemOf<'/v1/{env}/statement'>;
export type Payment = ResultOf<'/v1/{env}/payments/{id}', 'get'>;
/** The payments the money-moving forms create, each as its own route answers it. */
export type PayoutResult = ResultOf<'/v1/{env}/pix/payouts', 'post'>;
export type CashInResult = ResultOf<'/v1/{env}/simulate/pix/cash-in', 'post'>;
export type CryptoSendResult = ResultOf<'/v1/{env}/crypto/send', 'post'>;
export type QuoteExecution = ResultOf<'/v1/{env}/rfq/execute', 'post'>;
export type ApiEvent = ItemOf<'/v1/{env}/events'>;

export type Party = ResultOf<'/v1/{env}/customers/{id}', 'get'>;
export type Customers = ResultOf<'/v1/{env}/customers', 'get'>;
export type KycCase = ItemOf<'/v1/{env}/kyc'>;
export type Rfi = ItemOf<'/v1/{env}/kyc/{id}/rfi'>;
export type Subaccount = ItemOf<'/v1/{env}/subaccounts'>;
export type Dispute = ItemOf<'/v1/{env}/disputes'>;
export type DueCharge = ResultOf<'/v1/{env}/pix/due-charges/{id}', 'get'>;
export type Subscription = ResultOf<'/v1/{env}/subscriptions/{id}', 'get'>;
export type SubscriptionCycle = ItemOf<'/v1/{env}/subscriptions/{id}/cycles'>;
export type TestClock = ResultOf<'/v1/{env}/test-clock', 'get'>;
export type ReconciliationRunItem = ItemOf<'/v1/{env}/reconciliation/runs'>;
export type ReconciliationRunDetail = ResultOf<'/v1/{env}/reconciliation/runs/{id}', 'get'>;
export type UnassignedPixItem = ItemOf<'/v1/{env}/pix/unassigned'>;

export type PaymentLink = ItemOf<'/v1/{env}/payment-links'>;
export type Splits = ResultOf<'/v1/{env}/payment-links/{id}/splits', 'get'>;
export type SavedSplits = ResultOf<'/v1/{env}/payment-links/{id}/splits', 'put'>;
export type SettlementKey = ResultOf<'/v1/{env}/settlement-key', 'get'>;
export type Quote = ResultOf<'/v1/{env}/rfq/quote', 'post'>;

export type Wallet = ItemOf<'/v1/{env}/wallets'>;
export type WhitelistEntry = ItemOf<'/v1/{env}/whitelist'>;

export type ApiKey = ItemOf<'/v1/{env}/api-keys'>;
/** A key as its creation answers it: the only time the secret is shown. */
export type NewApiKey = ResultOf<'/v1/{env}/api-keys', 'post'>;
export type WebhookEndpoint = ItemOf<'/v1/{env}/webhooks/endpoints'>;
/** An endpoint as its creation answers it, with the signing secret (shown once). */
export type NewWebhookEndpoint = ResultOf<'/v1/{env}/webhooks/endpoints', 'post'>;
export type RotatedWebhookEndpoint = ResultOf<'/v1/{env}/webhooks/endpoints/{id}/rotate-secret', 'post'>;
export type WebhookDelivery = ItemOf<'/v1/{env}/webhooks/deliveries'>;
