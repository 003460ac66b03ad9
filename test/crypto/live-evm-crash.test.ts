/**
 * The crypto crash test on the live EVM adapter: the server is killed (SIGKILL) right after a live
 * USDT send is acknowledged and before the chain is called; restarted, it broadcasts the send once on
 * anvil and completes it after the confirmations, balances right on chain and in the books.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type Anvil, hasAnvil, startAnvil } from '../support/anvil.ts';
import { type ServerHarness, serverHarness } from '../support/server-process.ts';
import { OUTSIDE } from './support.ts';

let anvil: Anvil | undefined;
let server: ServerHarness | undefined;
afterAll(async () => {
  await server?.cleanup();
  await anvil?.stop();
});

describe.skipIf(!hasAnvil)(
  'a live EVM send survives a SIGKILL between its acknowledgement and the chain call',
  () => {
    it('is created, not broadcast; after a restart it is sent once and completes, balances right', async () => {
      anvil = await startAnvil();
      const token = await anvil.deployToken();
      server = serverHarness('evmcrash', 3000, {
        EVM_RPC_URL_POLYGON: anvil.url,
        EVM_USDT_CONTRACT_POLYGON: token,
        EVM_CONFIRMATIONS_POLYGON: '2',
        EVM_POLL_INTERVAL_MS: '200',
        EVM_DROP_TIMEOUT_MS: '1000',
      });
      await server.prepare();
      const harness = server;
      const chain = anvil;
      // The chain keeps moving: a block every 200 ms while the servers run.
      const miner = setInterval(() => void chain.mine(1).catch(() => {}), 200);
      try {
        // 1. A server with workers: a live wallet receives 100 USDT on chain, credited by the watcher.
        const first = harness.start(['serve']);
        expect(await harness.healthy(), first.output()).toBe(true);
        const { session, workspaceId } = await harness.owner('Crash EVM');
        const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
          harness.call(method, url, session, workspaceId, body, headers);
        expect((await call('PATCH', '/v1/live/workspace', { production_enabled: true })).status).toBe(200);
        const wallet = (await call('POST', '/v1/live/wallets', { network: 'polygon' })).body.data;
        await chain.setGas(wallet.address, 10n ** 18n);
        await chain.mint(token, wallet.address, 100_000_000n);
        const balance = async () => {
          const rows = (await call('GET', '/v1/live/balances?currency=USDT')).body.data as {
            kind: string;
            balance_minor: string;
          }[];
          return Object.fromEntries(rows.map((b) => [b.kind, b.balance_minor]));
        };
        const credited = await harness.waitFor(
          async () => (await balance()).available === '100000000',
          30_000,
        );
        expect(credited, first.output()).toBe(true);
        first.child.kill('SIGTERM');
        await first.exited;

        // 2. Without workers: the send is acknowledged, then the process is killed.
        const second = harness.start(['serve', '--no-workers']);
        expect(await harness.healthy(), second.output()).toBe(true);
        const body = {
          amount_minor: '25000000',
          to_address: OUTSIDE.evm,
          network: 'polygon',
          currency: 'USDT',
        };
        const idem = { 'idempotency-key': 'evm-crash-1' };
        const sent = await call('POST', '/v1/live/crypto/send', body, idem);
        second.child.kill('SIGKILL');
        expect(sent.status, sent.text).toBe(200);
        expect(sent.body.data).toMatchObject({ status: 'created', fee_minor: '50000' });
        const paymentId: string = sent.body.data.id;
        expect((await second.exited).signal).toBe('SIGKILL');
        await harness.withServerDb(async (db) => {
          const onChain = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM evm_transfers');
          expect(onChain.rows[0]!.n).toBe(0);
          const jobs = await db.query<{ kind: string }>(
            'SELECT kind FROM jobs WHERE done_at IS NULL AND subject_id = $1',
            [paymentId],
          );
          expect(jobs.rows).toEqual([{ kind: 'crypto.send' }]);
        });
        expect(await chain.rpc.nonceAt(wallet.address, 'pending')).toBe(0n);

        // 3. Restarted with workers: broadcast once, completed after the confirmations.
        const third = harness.start(['serve']);
        expect(await harness.healthy(), third.output()).toBe(true);
        const completed = await harness.waitFor(
          async () => (await call('GET', `/v1/live/payments/${paymentId}`)).body.data.status === 'completed',
          60_000,
        );
        expect(completed, third.output()).toBe(true);
        const retry = await call('POST', '/v1/live/crypto/send', body, idem);
        expect(retry.headers.get('idempotency-replayed')).toBe('true');
        expect(retry.body.data.id).toBe(paymentId);
        expect(await balance()).toMatchObject({ available: '74950000', locked: '0' });
        third.child.kill('SIGTERM');
        expect((await third.exited).code).toBe(0);

        expect(await chain.tokenBalance(token, OUTSIDE.evm)).toBe(25_000_000n);
        expect(await chain.tokenBalance(token, wallet.address)).toBe(75_000_000n);
        expect(await chain.rpc.nonceAt(wallet.address, 'latest')).toBe(1n);
        await harness.withServerDb(async (db) => {
          const sends = await db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM payments WHERE kind = 'crypto_send'",
          );
          expect(sends.rows[0]!.n).toBe(1);
          const deposits = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM crypto_deposits');
          expect(deposits.rows[0]!.n).toBe(1);
        });
      } finally {
        clearInterval(miner);
      }
    }, 600_000);
  },
);
