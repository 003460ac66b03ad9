import fc from 'fast-check';
import { hasError, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { buildBrCode, crc16 } from './brcode.ts';

describe('BR Code', () => {
  it('CRC16-CCITT-FALSE check value', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('parses with pix-utils (an independent parser) with the right amount, key and txid', () => {
    const code = buildBrCode({
      pixKey: '123e4567-e89b-12d3-a456-426614174000',
      amountMinor: 123456n,
      merchantName: 'Padaria São João',
      merchantCity: 'Florianópolis',
      txid: 'LASTRO0123456789ABCDEFGHI',
    });
    const parsed = parsePix(code);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({
      pixKey: '123e4567-e89b-12d3-a456-426614174000',
      transactionAmount: 1234.56,
      txid: 'LASTRO0123456789ABCDEFGHI',
      merchantName: 'PADARIA SAO JOAO',
      merchantCity: 'FLORIANOPOLIS',
    });
  });

  it('property: any amount and txid round-trips through pix-utils with a valid CRC', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 99_999_999_99n }),
        fc.stringMatching(/^[A-Za-z0-9]{1,25}$/),
        (amountMinor, txid) => {
          const code = buildBrCode({
            pixKey: 'pay@lastro.dev',
            amountMinor,
            merchantName: 'Lastro',
            merchantCity: 'Sao Paulo',
            txid,
          });
          expect(crc16(code.slice(0, -4))).toBe(code.slice(-4));
          const parsed = parsePix(code);
          expect(hasError(parsed)).toBe(false);
          if (hasError(parsed)) return;
          expect(Math.round(Number((parsed as { transactionAmount?: number }).transactionAmount) * 100)).toBe(
            Number(amountMinor),
          );
          expect((parsed as { txid?: string }).txid).toBe(txid);
        },
      ),
      { numRuns: 200 },
    );
  });
});
