import type { ModuleManifest } from '../platform/module.ts';
import apiKeys from './api-keys/index.ts';
import audit from './audit/index.ts';
import balances from './balances/index.ts';
import crypto from './crypto/index.ts';
import dashboard from './dashboard/index.ts';
import disputes from './disputes/index.ts';
import events from './events/index.ts';
import guides from './guides/index.ts';
import health from './health/index.ts';
import links from './links/index.ts';
import owner from './owner/index.ts';
import parties from './parties/index.ts';
import payments from './payments/index.ts';
import pix from './pix/index.ts';
import rfq from './rfq/index.ts';
import subaccounts from './subaccounts/index.ts';
import subscriptions from './subscriptions/index.ts';
import testClock from './test-clock/index.ts';
import verify from './verify/index.ts';
import wallets from './wallets/index.ts';
import webhooks from './webhooks/index.ts';
import workspace from './workspace/index.ts';

/** Every module of the service. A new module adds its manifest here; its routes, jobs and tasks follow. */
export const MODULES: readonly ModuleManifest[] = [
  health,
  owner,
  apiKeys,
  workspace,
  subaccounts,
  parties,
  audit,
  balances,
  payments,
  events,
  webhooks,
  pix,
  rfq,
  wallets,
  crypto,
  disputes,
  links,
  subscriptions,
  verify,
  testClock,
  guides,
  dashboard,
];
