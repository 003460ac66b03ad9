import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../../db/types.ts';
import type { Clock } from '../../platform/environment.ts';
import { isUuid, newId } from '../../platform/ids.ts';
import {
  evmAddressFromBytes,
  solanaAddressFromPublicKey,
  tronAddressFromBytes,
  validateAddress,
} from './addresses.ts';
import { isNetwork, type Network, networkFamily, type Stablecoin, tokenDecimals } from './networks.ts';
import type {
  ChainProvider,
  ChainTransfer,
  ChainTransferInput,
  IncomingTransfer,
  WatchedAddress,
} from './provider.ts';
import { randomTxHash } from './tx-hash.ts';

/** Why the sandbox chain fails a send whose amount ends in 13: the token contract reverted it. */
export const SANDBOX_REVERT_REASON = 'transaction_reverted';
/** The most transfers one listIncoming answers; the caller asks again from the last confirmedAt. */
export const SANDBOX_INCOMING_PAGE = 1000;

interface TransferRow {
  id: string;
  payment_id: string | null;
  network: Network;
  currency: Stablecoin;
  from_address: string;
  to_address: string;
  amount: bigint;
  tx_hash: string | null;
  status: 'processing' | 'completed' | 'failed';
  failure_reason: string | null;
  settle_at: Date;
}

// Settles what is due, in one statement so a concurrent reader never sees half of it.
const SETTLE = `UPDATE sandbox_chain_transfers
   SET status = CASE WHEN payment_id IS NOT NULL AND amount % 100 = 13 THEN 'failed' ELSE 'completed' END,
       failure_reason = CASE WHEN payment_id IS NOT NULL AND amount % 100 = 13 THEN '${SANDBOX_REVERT_REASON}' END
 WHERE status = 'processing' AND settle_at <= $1`;

const WATCHED = '(network, to_address) IN (SELECT * FROM unnest($2::text[], $3::text[]))';

function randomAddress(network: Network): string {
  const family = networkFamily(network);
  if (family === 'solana') return solanaAddressFromPublicKey(randomBytes(32));
  return family === 'evm' ? evmAddressFromBytes(randomBytes(20)) : tronAddressFromBytes(randomBytes(20));
}

/** A transfer as a deposit watcher sees it (one token transfer per transaction here: log index 0). */
const incomingOf = (row: TransferRow): IncomingTransfer => ({
  network: row.network,
  currency: row.currency,
  txHash: row.tx_hash!,
  logIndex: 0,
  fromAddress: row.from_address,
  toAddress: row.to_address,
  amountMinor: row.amount,
  confirmedAt: row.settle_at,
});

/**
 * A chain that behaves like a real one: a send is broadcast at once with a tx hash in the network's
 * format and final after `settleMs`; it is idempotent on the payment id; a send of an amount ending
 * in 13 is reverted. Completed transfers into watched addresses, sends between our own wallets
 * included, come back from listIncoming as deposits. Its state lives in its own table, as a chain's would.
 */
export class SandboxChainProvider implements ChainProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settleMs: number,
  ) {}

  async sendTransfer(input: ChainTransferInput): Promise<ChainTransfer> {
    if (input.amountMinor <= 0n) throw new RangeError('a transfer moves a positive amount');
    if (!isUuid(input.paymentId)) throw new RangeError('the payment id is a uuid');
    const now = this.clock.now();
    const refused = this.refusal(input);
    const from = validateAddress(input.network, input.fromAddress);
    const to = validateAddress(input.network, input.toAddress);
    await this.db.query(
      `INSERT INTO sandbox_chain_transfers
         (id, payment_id, network, currency, from_address, to_address, amount, tx_hash, status, failure_reason, settle_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (payment_id) DO NOTHING`,
      [
        newId(),
        input.paymentId,
        input.network,
        input.currency,
        from.ok ? from.address : input.fromAddress,
        to.ok ? to.address : input.toAddress,
        input.amountMinor,
        refused ? null : randomTxHash(input.network),
        refused ? 'failed' : 'processing',
        refused ?? null,
        refused ? now : new Date(now.getTime() + this.settleMs),
      ],
    );
    return this.getStatus(input.paymentId);
  }

  /** What a node would refuse before broadcasting: the transfer never gets a hash. */
  private refusal(input: ChainTransferInput): string | undefined {
    if (!isNetwork(input.network)) return 'unsupported_network';
    if (tokenDecimals(input.network, input.currency) === undefined) return 'unsupported_currency';
    if (!validateAddress(input.network, input.fromAddress).ok) return 'invalid_from_address';
    if (!validateAddress(input.network, input.toAddress).ok) return 'invalid_to_address';
    return undefined;
  }

  async getStatus(paymentId: string): Promise<ChainTransfer> {
    if (!isUuid(paymentId)) return { status: 'unknown' };
    await this.db.query(`${SETTLE} AND payment_id = $2`, [this.clock.now(), paymentId]);
    const { rows } = await this.db.query<TransferRow>(
      'SELECT * FROM sandbox_chain_transfers WHERE payment_id = $1',
      [paymentId],
    );
    const row = rows[0];
    if (!row) return { status: 'unknown' };
    return {
      status: row.status,
      ...(row.tx_hash ? { txHash: row.tx_hash } : {}),
      ...(row.failure_reason ? { failureReason: row.failure_reason } : {}),
    };
  }

  async listIncoming(addresses: readonly WatchedAddress[], since: Date): Promise<IncomingTransfer[]> {
    const watched = addresses.flatMap(({ network, address }) => {
      const check = validateAddress(network, address);
      return check.ok ? [{ network, address: check.address }] : [];
    });
    if (watched.length === 0) return [];
    const params = [this.clock.now(), watched.map((w) => w.network), watched.map((w) => w.address)];
    await this.db.query(`${SETTLE} AND ${WATCHED}`, params);
    const { rows } = await this.db.query<TransferRow>(
      `SELECT * FROM sandbox_chain_transfers
        WHERE status = 'completed' AND ${WATCHED} AND settle_at >= $4 AND settle_at <= $1
        ORDER BY settle_at, id LIMIT ${SANDBOX_INCOMING_PAGE}`,
      [...params, since],
    );
    return rows.map(incomingOf);
  }

  /**
   * Sandbox helpers: a transfer into `toAddress` from outside (a random sender unless named), final
   * after settleMs like any other. With a `key`, a second call with that key makes nothing and answers
   * the transfer the first one made (whatever this call asked), as a retried helper call must. Given
   * the caller's transaction `q`, the transfer commits or rolls back with what the caller does.
   */
  async simulateDeposit(
    input: {
      network: Network;
      currency: Stablecoin;
      toAddress: string;
      amountMinor: bigint;
      fromAddress?: string;
      key?: string;
    },
    q: Queryable = this.db,
  ): Promise<IncomingTransfer> {
    if (input.amountMinor <= 0n) throw new RangeError('a deposit moves a positive amount');
    if (tokenDecimals(input.network, input.currency) === undefined) {
      throw new RangeError(`${input.currency} is not carried on ${input.network}`);
    }
    const to = validateAddress(input.network, input.toAddress);
    if (!to.ok) throw new RangeError(to.message);
    const from = validateAddress(input.network, input.fromAddress ?? randomAddress(input.network));
    if (!from.ok) throw new RangeError(from.message);
    const id = newId();
    await q.query(
      `INSERT INTO sandbox_chain_transfers
         (id, payment_id, network, currency, from_address, to_address, amount, tx_hash, status, settle_at, deposit_key)
       VALUES ($1, NULL, $2, $3, $4, $5, $6, $7, 'processing', $8, $9) ON CONFLICT (deposit_key) DO NOTHING`,
      [
        id,
        input.network,
        input.currency,
        from.address,
        to.address,
        input.amountMinor,
        randomTxHash(input.network),
        new Date(this.clock.now().getTime() + this.settleMs),
        input.key ?? null,
      ],
    );
    const { rows } = await q.query<TransferRow>(
      'SELECT * FROM sandbox_chain_transfers WHERE id = $1 OR deposit_key = $2',
      [id, input.key ?? null],
    );
    return incomingOf(rows[0]!);
  }

  /** Sandbox helpers settle a send now, as the chain would report it. */
  async forceOutcome(paymentId: string, outcome: 'completed' | 'failed', reason?: string): Promise<void> {
    await this.db.query(
      `UPDATE sandbox_chain_transfers SET status = $2, failure_reason = $3, settle_at = least(settle_at, $4)
        WHERE payment_id = $1 AND status = 'processing'`,
      [paymentId, outcome, outcome === 'failed' ? (reason ?? SANDBOX_REVERT_REASON) : null, this.clock.now()],
    );
  }
}
