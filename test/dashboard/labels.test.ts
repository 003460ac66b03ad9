/** Event types, statuses and the server's own descriptions read as words in pt-BR, not as codes. */
import { expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/platform/event-types.ts';
import {
  describePayment,
  EVENT_NAMES,
  eventName,
  SERVER_DESCRIPTIONS,
} from '../../web/dashboard/src/labels.ts';
import { PT } from '../../web/dashboard/src/pt.ts';

it('names every event type the server emits, in Portuguese', () => {
  expect(EVENT_TYPES.filter((type) => !EVENT_NAMES[type])).toEqual([]);
  expect(Object.values(EVENT_NAMES).filter((name) => !PT[name])).toEqual([]);
  expect(eventName('payment.created')).toBe('Pagamento criado');
});

it('translates the payment statuses', () => {
  for (const status of ['created', 'processing', 'completed', 'failed', 'expired', 'refunded'])
    expect(PT[status], status).toBeTruthy();
  expect(PT.completed).toBe('concluído');
});

it('shows the server’s own descriptions translated, the merchant’s as written', () => {
  expect(Object.values(SERVER_DESCRIPTIONS).filter((text) => !PT[text])).toEqual([]);
  expect(describePayment('Simulated PIX cash-in')).toBe('Entrada PIX simulada');
  expect(describePayment('Pedido 42')).toBe('Pedido 42');
  expect(describePayment(null)).toBe('');
});
