/** Shared set-up of the dispute tests: a sandbox cash-in, a dispute opened on it, and what a user sees. */
import { expect } from 'vitest';
import type { Client } from '../support/world.ts';

export const disputeUrl = (id: string, env = 'sandbox') => `/v1/${env}/disputes/${id}`;

/** A completed sandbox cash-in of `amount` to the caller's party (or `partyId`). */
export async function paidCashIn(api: Client, amount: string, partyId?: string) {
  const res = await api.post('/v1/sandbox/simulate/pix/cash-in', {
    amount_minor: amount,
    ...(partyId ? { party_id: partyId } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; party_id: string; amount_minor: string };
}

/** Opens a dispute on a paid cash-in through the sandbox simulator; answers the dispute. */
export async function openDispute(api: Client, paymentId: string, body: Record<string, unknown> = {}) {
  const res = await api.post(`/v1/sandbox/simulate/payments/${paymentId}/dispute`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

export async function closeDispute(api: Client, id: string, outcome: 'returned' | 'rejected') {
  const res = await api.post(`/v1/sandbox/simulate/disputes/${id}/close`, { outcome });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
