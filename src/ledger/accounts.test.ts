import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountId,
  accountIdOfKey,
  accountKey,
  SYSTEM_KINDS,
  type SystemAccount,
  systemAccount,
} from './accounts.ts';
import { CURRENCY_CODES } from './currency.ts';

const system = fc.record({
  environment: fc.constantFrom('sandbox' as const, 'live' as const),
  kind: fc.constantFrom(...SYSTEM_KINDS),
  currency: fc.constantFrom(...CURRENCY_CODES),
  network: fc.option(fc.constantFrom('polygon', 'tron', 'ethereum'), { nil: null }),
});
const of = (workspaceId: string, rest: Omit<SystemAccount, 'type' | 'workspaceId'>): SystemAccount => ({
  type: 'system',
  workspaceId,
  ...rest,
});

describe('system accounts are per workspace', () => {
  it('the same system account of two workspaces has two ids', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), system, (a, b, rest) => {
        fc.pre(a.toLowerCase() !== b.toLowerCase());
        expect(accountId(of(a, rest))).not.toBe(accountId(of(b, rest)));
      }),
    );
  });

  it('a workspace id names the same account whatever its case', () => {
    fc.assert(
      fc.property(fc.uuid(), system, (ws, rest) => {
        expect(accountId(of(ws.toUpperCase(), rest))).toBe(accountId(of(ws, rest)));
      }),
    );
  });

  it('the constructors carry the workspace into the key', () => {
    const ws = '0190f3a2-1b2c-7d3e-8f40-123456789abc';
    expect(accountKey(systemAccount.pixSettlement(ws, 'sandbox'))).toBe(
      `system|${ws}|sandbox|pix_settlement|BRL|`,
    );
    expect(accountKey(systemAccount.feeRevenue(ws, 'live', 'USDT'))).toBe(
      `system|${ws}|live|fee_revenue|USDT|`,
    );
    expect(accountKey(systemAccount.cryptoCustody(ws, 'live', 'tron', 'USDT'))).toBe(
      `system|${ws}|live|crypto_custody|USDT|tron`,
    );
    expect(accountKey(systemAccount.fxInventory(ws, 'sandbox', 'USDC'))).toBe(
      `system|${ws}|sandbox|fx_inventory|USDC|`,
    );
  });
});

describe('an account key', () => {
  it('always names the same id, asked once or many times, however many keys came between', () => {
    const first = new Map<string, string>();
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 50 }),
        (keys) => {
          for (const key of keys) {
            const id = accountIdOfKey(key);
            expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
            expect(first.get(key) ?? id).toBe(id);
            first.set(key, id);
          }
        },
      ),
      { numRuns: 400 },
    );
    // Ids are stored: the derivation itself never changes.
    expect(accountIdOfKey('sandbox|BRL|merchant')).toBe('2eb5637e-9536-8604-9d10-db4999375401');
  });
});
