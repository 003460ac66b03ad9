/**
 * A devolução the PSP lists without an id is never dropped: it is keyed by its rtrId (the return's
 * own end-to-end id), and one with neither keeps an empty id, which the MED path refuses to apply
 * and sets aside for an operator (test/pix/med-return-without-any-id-is-set-aside.test.ts). None
 * is keyed "undefined", where two would collapse into one.
 */
import { describe, expect, it } from 'vitest';
import { receivedPixOf } from './api-pix.ts';

const E2E = 'E12345678202611251200abcdefghijk';
const devolucao = (id: unknown, rtrId: unknown, valor: string) => ({
  id,
  rtrId,
  valor,
  natureza: 'MED_FRAUDE',
  status: 'DEVOLVIDO',
});

describe('a received PIX read from the API Pix', () => {
  it('keys a devolução without an id by its rtrId and keeps the others', () => {
    const pix = receivedPixOf({
      endToEndId: E2E,
      valor: '50.00',
      devolucoes: [
        devolucao(undefined, 'D10', '10.00'),
        devolucao('', 'D5', '5.00'),
        devolucao('D1', 'R1', '20.00'),
        null,
      ],
    });
    expect(pix.returns.map((r) => r.id)).toEqual(['D10', 'D5', 'D1']);
    expect(pix.returns.map((r) => r.amountMinor)).toEqual([1000n, 500n, 2000n]);
  });

  it('keeps one with neither id nor rtrId, which cannot be applied and is set aside', () => {
    const pix = receivedPixOf({
      endToEndId: E2E,
      valor: '50.00',
      devolucoes: [devolucao(undefined, '', '10.00')],
    });
    expect(pix.returns).toHaveLength(1);
    expect(pix.returns.some((r) => r.id === 'undefined')).toBe(false);
    expect(pix.returns[0]!.id).toBe('');
  });
});
