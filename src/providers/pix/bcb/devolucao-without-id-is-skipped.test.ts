/**
 * A devolução the PSP lists without an id is malformed: it is left out, never keyed as "undefined",
 * where two of them would collapse into one return and the second never be applied.
 */
import { describe, expect, it } from 'vitest';
import { receivedPixOf } from './api-pix.ts';

const E2E = 'E12345678202611251200abcdefghijk';
const devolucao = (id: unknown, valor: string) => ({
  id,
  rtrId: `D${valor}`,
  valor,
  natureza: 'MED_FRAUDE',
  status: 'DEVOLVIDO',
});

describe('a received PIX read from the API Pix', () => {
  it('leaves out its devoluções without an id and keeps the others', () => {
    const pix = receivedPixOf({
      endToEndId: E2E,
      valor: '50.00',
      devolucoes: [devolucao(undefined, '10.00'), devolucao('', '5.00'), devolucao('D1', '20.00'), null],
    });
    expect(pix.returns.map((r) => r.id)).toEqual(['D1']);
    expect(pix.returns.some((r) => r.id === 'undefined')).toBe(false);
  });
});
