import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids.ts';
import { paymentIdOf, pspIdOf } from './psp-id.ts';

describe('PSP ids', () => {
  it('a payment id becomes a txid/idEnvio the standards accept and maps back to itself', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        const id = pspIdOf(uuid);
        expect(id).toMatch(/^[a-zA-Z0-9]{26,35}$/);
        expect(paymentIdOf(id)).toBe(uuid.toLowerCase());
      }),
    );
    const id = newId();
    expect(paymentIdOf(pspIdOf(id))).toBe(id);
  });

  it('an id that is not ours maps to nothing', () => {
    for (const other of ['LST123', 'x'.repeat(32), '12345', 42, undefined, `${'a'.repeat(32)}b`]) {
      expect(paymentIdOf(other)).toBeUndefined();
    }
  });
});
