/** Shared set-up of the wallet and crypto tests: a workspace with wallets, USDT, a whitelist and 2FA. */

import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { expect } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { type Env, type PixWorkspace, pixWorkspace } from '../pix/support.ts';
import type { TestContext } from '../support/app.ts';
import type { client } from '../support/fixtures.ts';

export { drainJobs } from '../pix/support.ts';

export const SEND = '/v1/sandbox/crypto/send';
/** A real-shaped outside address per family (EIP-55 vector; a Tron and a Solana account). */
export const OUTSIDE = {
  evm: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  solana: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
};

export interface Wallet {
  id: string;
  address: string;
  network: string;
  party_id: string;
  provider_ref: string | null;
  is_primary: boolean;
  watch_only: boolean;
}

export interface CryptoWorkspace extends PixWorkspace {
  /** The default party's balances of a currency by kind. */
  coins(currency?: string, env?: Env, partyId?: string): Promise<Record<string, string>>;
  wallet(network: string, body?: Record<string, unknown>, as?: ReturnType<typeof client>): Promise<Wallet>;
  deposit(walletId: string, amountMinor: string, currency?: string): Promise<{ id: string }>;
  whitelist(network: string, address: string, env?: Env): Promise<{ id: string }>;
  /** Turns 2FA on for the owner; returns a function giving the current code. */
  enableTwoFactor(): Promise<() => string>;
  /** Net postings of this workspace on a system account kind (credit positive), in a currency. */
  systemNet(kind: string, currency?: string, env?: Env): Promise<bigint>;
}

export async function cryptoWorkspace(ctx: TestContext, name = 'Cripto Ltda'): Promise<CryptoWorkspace> {
  const ws = await pixWorkspace(ctx, name);
  return {
    ...ws,
    async coins(currency = 'USDT', env = 'sandbox', partyId = ws.owner.defaultPartyId) {
      const res = await ws.session.get(`/v1/${env}/balances?currency=${currency}&party_id=${partyId}`);
      if (res.statusCode !== 200) throw new Error(`balances: ${res.statusCode} ${res.body}`);
      const out: Record<string, string> = { available: '0', pending: '0', locked: '0', trading: '0' };
      for (const row of res.json().data as { kind: string; balance_minor: string }[])
        out[row.kind] = row.balance_minor;
      return out;
    },
    async wallet(network, body = {}, as = ws.api) {
      const res = await as.post('/v1/sandbox/wallets', { network, ...body });
      if (res.statusCode !== 200) throw new Error(`wallet: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    async deposit(walletId, amountMinor, currency = 'USDT') {
      const res = await ws.api.post('/v1/sandbox/simulate/crypto/deposit', {
        wallet_id: walletId,
        currency,
        amount_minor: amountMinor,
      });
      if (res.statusCode !== 200) throw new Error(`deposit: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    async whitelist(network, address, env = 'sandbox') {
      const res = await ws.session.post(`/v1/${env}/whitelist`, { network, address });
      if (res.statusCode !== 200) throw new Error(`whitelist: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    async enableTwoFactor() {
      const auth = { authorization: `Bearer ${ws.owner.sessionToken}` };
      const setup = await ctx.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth });
      expect(setup.statusCode, setup.body).toBe(200);
      const secret: string = setup.json().data.secret;
      const enable = await ctx.app.inject({
        method: 'POST',
        url: '/v1/auth/2fa/enable',
        headers: auth,
        payload: { otp_code: totpCode(secret, ctx.clock.now()) },
      });
      expect(enable.statusCode, enable.body).toBe(200);
      return () => totpCode(secret, ctx.clock.now());
    },
    async systemNet(kind, currency = 'USDT', env = 'sandbox') {
      const { rows } = await ctx.db.query<{ net: string | null }>(
        `SELECT sum(CASE WHEN p.direction = 'credit' THEN p.amount ELSE -p.amount END)::text AS net
           FROM ledger_postings p JOIN ledger_journals j ON j.workspace_id = p.workspace_id AND j.id = p.journal_id
          WHERE j.workspace_id = $1 AND j.environment = $2 AND p.kind = $3 AND p.currency = $4`,
        [ws.owner.workspaceId, env, kind, currency],
      );
      return BigInt(rows[0]?.net ?? '0');
    },
  };
}

/**
 * Address checks written here from the formats' definitions, not with the service's validator:
 * EIP-55 recomputed with keccak-256; Tron's base58check (0x41 + 20 bytes + double-SHA-256 checksum);
 * Solana a 32-byte ed25519 point.
 */
export function independentlyValid(family: 'evm' | 'tron' | 'solana', address: string): boolean {
  if (family === 'evm') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
    const hex = address.slice(2).toLowerCase();
    const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
    return [...hex].every((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c) === address[2 + i]);
  }
  if (family === 'tron') {
    const bytes = base58.decode(address);
    if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
    const check = sha256(sha256(bytes.slice(0, 21))).slice(0, 4);
    return bytesToHex(check) === bytesToHex(bytes.slice(21));
  }
  const bytes = base58.decode(address);
  if (bytes.length !== 32) return false;
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The address a signature by the wallet's key recovers to (EVM): the key really is the wallet's. */
export function evmSigner(digest: Uint8Array, signature: Uint8Array): string {
  const publicKey = secp256k1.recoverPublicKey(
    Uint8Array.of(signature[64]!, ...signature.slice(0, 64)),
    digest,
    {
      prehash: false,
    },
  );
  const account = keccak_256(secp256k1.Point.fromBytes(publicKey).toBytes(false).slice(1)).slice(-20);
  const hex = bytesToHex(account);
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  return `0x${[...hex].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}
