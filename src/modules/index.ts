import type { Deps } from '../platform/context.ts';
import type { App } from '../platform/schema.ts';
import createApiKey from './api-keys/routes/create.ts';
import listApiKeys from './api-keys/routes/list.ts';
import revokeApiKey from './api-keys/routes/revoke.ts';
import listAuditEvents from './audit/routes/list.ts';
import getEvent from './events/routes/get.ts';
import listEvents from './events/routes/list.ts';
import health from './health/routes/health.ts';
import listBalances from './ledger/routes/balances.ts';
import statement from './ledger/routes/statement.ts';
import login from './owner/routes/login.ts';
import logout from './owner/routes/logout.ts';
import signup from './owner/routes/signup.ts';
import enableTwoFactor from './owner/routes/two-factor-enable.ts';
import setupTwoFactor from './owner/routes/two-factor-setup.ts';
import getPayment from './payments/routes/get.ts';
import listPayments from './payments/routes/list.ts';
import createPixCharge from './pix/routes/charges-create.ts';
import createPixPayout from './pix/routes/payouts-create.ts';
import paymentQrCode from './pix/routes/qr.ts';
import createRefund from './pix/routes/refund-create.ts';
import deleteSettlementKey from './pix/routes/settlement-key-delete.ts';
import getSettlementKey from './pix/routes/settlement-key-get.ts';
import putSettlementKey from './pix/routes/settlement-key-put.ts';
import simulatePaymentHelpers from './pix/routes/simulate.ts';
import simulateCashIn from './sandbox/routes/cash-in.ts';
import createWebhookEndpoint from './webhooks/routes/create-endpoint.ts';
import deleteWebhookEndpoint from './webhooks/routes/delete-endpoint.ts';
import getWebhookDelivery from './webhooks/routes/get-delivery.ts';
import getWebhookEndpoint from './webhooks/routes/get-endpoint.ts';
import listWebhookDeliveries from './webhooks/routes/list-deliveries.ts';
import listWebhookEndpoints from './webhooks/routes/list-endpoints.ts';
import retryWebhookDelivery from './webhooks/routes/retry-delivery.ts';
import rotateWebhookSecret from './webhooks/routes/rotate-secret.ts';
import updateWebhookEndpoint from './webhooks/routes/update-endpoint.ts';
import getWorkspace from './workspace/routes/get.ts';
import updateWorkspace from './workspace/routes/update.ts';

type RouteModule = (app: App, deps: Deps) => void;

/** Every route of the service. A module adds its route files here. */
const ROUTES: RouteModule[] = [
  health,
  signup,
  login,
  logout,
  setupTwoFactor,
  enableTwoFactor,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  getWorkspace,
  updateWorkspace,
  listAuditEvents,
  listBalances,
  statement,
  getPayment,
  listPayments,
  simulateCashIn,
  listEvents,
  getEvent,
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  listWebhookDeliveries,
  getWebhookDelivery,
  retryWebhookDelivery,
  putSettlementKey,
  getSettlementKey,
  deleteSettlementKey,
  createPixPayout,
  createPixCharge,
  createRefund,
  paymentQrCode,
  simulatePaymentHelpers,
];

export function registerModules(app: App, deps: Deps): void {
  for (const register of ROUTES) register(app, deps);
}
