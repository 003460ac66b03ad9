import type { ComponentType } from 'react';
import { Customers } from './customers.tsx';
import { Disputes } from './disputes.tsx';
import { DueCharges } from './due-charges.tsx';
import { Keys } from './keys.tsx';
import { Links } from './links.tsx';
import { Overview } from './overview.tsx';
import { Payments } from './payments.tsx';
import { Payout } from './payout.tsx';
import { Reconciliation } from './reconciliation.tsx';
import { Rfq } from './rfq.tsx';
import { Sandbox } from './sandbox.tsx';
import { Security } from './security.tsx';
import { Settlement } from './settlement.tsx';
import { Statement } from './statement.tsx';
import { Subaccounts } from './subaccounts.tsx';
import { Subscriptions } from './subscriptions.tsx';
import type { PageProps } from './types.ts';
import { Wallets } from './wallets.tsx';
import { Webhooks } from './webhooks.tsx';
import { Whitelist } from './whitelist.tsx';

interface PageEntry {
  path: string;
  title: string;
  component: ComponentType<PageProps>;
  sandboxOnly?: boolean;
  hidden?: boolean;
}

/** The sections of the dashboard, in the navigation's order; titles are English keys of t(). */
export const PAGES: PageEntry[] = [
  { path: '', title: 'Balances', component: Overview },
  { path: 'payments', title: 'Payments', component: Payments },
  { path: 'statement', title: 'Statement', component: Statement },
  { path: 'payout', title: 'PIX payout', component: Payout },
  { path: 'due-charges', title: 'Due-date charges', component: DueCharges },
  { path: 'subscriptions', title: 'Subscriptions', component: Subscriptions },
  { path: 'links', title: 'Payment links', component: Links },
  { path: 'customers', title: 'Customers', component: Customers },
  { path: 'wallets', title: 'Wallets and crypto', component: Wallets },
  { path: 'disputes', title: 'Disputes', component: Disputes },
  { path: 'reconciliation', title: 'Reconciliation', component: Reconciliation },
  { path: 'rfq', title: 'Convert (RFQ)', component: Rfq },
  { path: 'sandbox', title: 'Sandbox tools', component: Sandbox, sandboxOnly: true },
  { path: 'keys', title: 'API keys', component: Keys },
  { path: 'settlement', title: 'Settlement key', component: Settlement },
  { path: 'whitelist', title: 'Crypto whitelist', component: Whitelist },
  { path: 'webhooks', title: 'Webhooks', component: Webhooks },
  { path: 'subaccounts', title: 'Sub-accounts', component: Subaccounts },
  { path: 'security', title: 'Security', component: Security },
];

export function pageFor(route: string): PageEntry {
  const first = route.split('/')[0] ?? '';
  return PAGES.find((page) => page.path === first) ?? (PAGES[0] as PageEntry);
}
