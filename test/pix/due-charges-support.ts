/** Helpers of the due-date charge tests: São Paulo dates, and a charge created and read over HTTP. */
import { expect } from 'vitest';
import type { Client } from '../support/world.ts';

export const DUE = '/v1/sandbox/pix/due-charges';
const DAY_MS = 86_400_000;

/** The São Paulo date `days` after `from` (a real instant). */
export function spDate(days: number, from = new Date()): string {
  return new Date(from.getTime() + days * DAY_MS).toLocaleDateString('en-CA', {
    timeZone: 'America/Sao_Paulo',
  });
}

export const DEBTOR = { name: 'Francisco da Silva', document: '529.982.247-25' };

export async function createDue(api: Client, body: Record<string, unknown>, env = 'sandbox') {
  const res = await api.post(`/v1/${env}/pix/due-charges`, { debtor: DEBTOR, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

export async function advanceDays(api: Client, days: number) {
  const res = await api.post('/v1/sandbox/test-clock/advance', { days });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
