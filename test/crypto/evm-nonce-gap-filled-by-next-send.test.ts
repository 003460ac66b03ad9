/**
 * Two sends from one address take nonces 0 and 1; the node refuses the one at 0 before taking it
 * (failed, money returned). Nonce 1 can never be mined while 0 is unused, and every later send was
 * given a nonce above it too: the address stalled for good, its sends held for ever. The next send
 * must fill the gap.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { findTransfer, finish, planTransfer, releaseNonce } from '../../src/providers/chain/evm/store.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const FROM = '0x6666666666666666666666666666666666666666';
const plan = () => ({
  paymentId: randomUUID(),
  network: 'polygon',
  token: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  from: FROM,
  to: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  amount: 1_000_000n,
  keyRef: randomUUID(),
  chainId: 137n,
  gas: 60_000n,
  maxFeePerGas: 2n,
  maxPriorityFeePerGas: 1n,
});

it('a send refused at nonce 0 while nonce 1 is open: the next send takes 0, then 2', async () => {
  const [a, b] = [plan(), plan()];
  await planTransfer(db, a, 0n);
  await planTransfer(db, b, 0n);
  const refused = (await findTransfer(db, a.paymentId))!;
  expect(refused.nonce).toBe(0n);
  await finish(db, a.paymentId, 'failed', 'broadcast_rejected');
  await releaseNonce(db, refused);
  const c = plan();
  await planTransfer(db, c, 0n);
  expect((await findTransfer(db, c.paymentId))!.nonce).toBe(0n);
  const d = plan();
  await planTransfer(db, d, 0n);
  expect((await findTransfer(db, d.paymentId))!.nonce).toBe(2n);
});
