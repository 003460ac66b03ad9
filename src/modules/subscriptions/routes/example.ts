import type { SubscriptionView } from '../schemas.ts';

/** A typical subscription, as the routes' documented answers show it. */
export const SUBSCRIPTION_EXAMPLE: SubscriptionView = {
  id: '01930000-0000-7000-8000-000000000001',
  workspace_id: '01930000-0000-7000-8000-000000000002',
  environment: 'sandbox',
  party_id: '01930000-0000-7000-8000-000000000003',
  status: 'active',
  debtor: { name: 'Fulano de Tal', document: '*********25', document_type: 'cpf' },
  amount_minor: '3500',
  minimum_minor: null,
  currency: 'BRL',
  frequency: 'monthly',
  start_date: '2027-01-10',
  end_date: null,
  retry_policy: 'three_in_seven_days',
  description: 'Streaming mensal',
  cancelled_by: null,
  next_due_date: '2027-02-10',
  cycles_paid: 1,
  next_amount_minor: null,
  payer_maximum_minor: null,
  metadata: {},
  authorised_at: '2027-01-02T12:00:00.000Z',
  created_at: '2027-01-01T12:00:00.000Z',
  updated_at: '2027-01-02T12:00:00.000Z',
};
