import type { Database, Queryable } from '../../db/types.ts';
import type { Clock } from '../../platform/environment.ts';
import { randomBase62 } from '../../platform/secrets.ts';
import { buildBrCode } from './brcode.ts';
import { endToEndId } from './end-to-end-id.ts';
import type { PixProvider, ProviderTransfer, ReceivedPix, SandboxPixControls } from './provider.ts';

/** ISPB used by the sandbox PSP in end-to-end ids (not a real institution's). */
export const SANDBOX_ISPB = '99999004';
/** The sandbox PSP's collection key: every sandbox BR Code pays this EVP. */
export const SANDBOX_COLLECTION_KEY = '6f1c1a0e-3b7d-4c5e-9a2f-1d8e7b6a5c40';

interface TransferRow {
  payment_id: string;
  amount: bigint;
  end_to_end_id: string;
  status: 'processing' | 'completed' | 'failed';
  failure_reason: string | null;
  settle_at: Date;
}

/**
 * A PSP that behaves like a real one: transfers settle asynchronously after `settleMs`, carry
 * end-to-end ids in the real format, are idempotent on the payment id, and an amount ending in
 * 13 is rejected by the "receiving bank". Its state lives in its own table, as a PSP's would.
 */
export class SandboxPixProvider implements PixProvider, SandboxPixControls {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settleMs: number,
  ) {}

  async createCharge(input: { paymentId: string; amountMinor: bigint; description?: string | null }) {
    const txid = `LST${randomBase62(22)}`;
    const brCode = buildBrCode({
      pixKey: SANDBOX_COLLECTION_KEY,
      amountMinor: input.amountMinor,
      merchantName: 'LASTRO SANDBOX',
      merchantCity: 'SAO PAULO',
      txid,
      description: input.description ?? undefined,
    });
    return { txid, brCode, providerRef: `sbx_charge_${input.paymentId}` };
  }

  sendPayout(input: { paymentId: string; amountMinor: bigint; pixKey: string }) {
    return this.start(input.paymentId, 'payout', input.amountMinor, input.pixKey);
  }

  sendRefund(input: { paymentId: string; amountMinor: bigint }) {
    return this.start(input.paymentId, 'refund', input.amountMinor, null);
  }

  private async start(
    paymentId: string,
    direction: 'payout' | 'refund',
    amount: bigint,
    pixKey: string | null,
  ) {
    await this.register(paymentId, direction, amount, pixKey);
    return this.getStatus(paymentId);
  }

  /**
   * Records a transfer as received, processing, without looking at it again (so without settling it
   * even when settleMs is 0): the sandbox helpers register first and force the outcome next.
   * Idempotent on the payment id.
   */
  async register(paymentId: string, direction: 'payout' | 'refund', amount: bigint, pixKey: string | null) {
    const now = this.clock.now();
    await this.db.query(
      `INSERT INTO sandbox_pix_transfers (payment_id, direction, amount, pix_key, end_to_end_id, status, settle_at)
       VALUES ($1, $2, $3, $4, $5, 'processing', $6) ON CONFLICT (payment_id) DO NOTHING`,
      [
        paymentId,
        direction,
        amount,
        pixKey,
        endToEndId(SANDBOX_ISPB, now),
        new Date(now.getTime() + this.settleMs),
      ],
    );
  }

  async getStatus(paymentId: string): Promise<ProviderTransfer> {
    const { rows } = await this.db.query<TransferRow>(
      'SELECT * FROM sandbox_pix_transfers WHERE payment_id = $1',
      [paymentId],
    );
    let row = rows[0];
    if (!row) return { status: 'unknown' };
    if (row.status === 'processing' && row.settle_at <= this.clock.now()) {
      const rejected = row.amount % 100n === 13n;
      const settled = await this.db.query<TransferRow>(
        // Only a transfer still processing settles here: an outcome forced in the meantime stands.
        `UPDATE sandbox_pix_transfers SET status = $2, failure_reason = $3
          WHERE payment_id = $1 AND status = 'processing' RETURNING *`,
        [paymentId, rejected ? 'failed' : 'completed', rejected ? 'sandbox_rejected' : null],
      );
      row =
        settled.rows[0] ??
        (
          await this.db.query<TransferRow>('SELECT * FROM sandbox_pix_transfers WHERE payment_id = $1', [
            paymentId,
          ])
        ).rows[0]!;
    }
    return {
      status: row.status,
      providerRef: `sbx_${row.payment_id}`,
      endToEndId: row.end_to_end_id,
      failureReason: row.failure_reason ?? undefined,
    };
  }

  /** Sandbox helpers settle a transfer now, as the PSP would report it. */
  async forceOutcome(paymentId: string, outcome: 'completed' | 'failed', reason?: string): Promise<void> {
    await this.db.query(
      `UPDATE sandbox_pix_transfers SET status = $2, failure_reason = $3, settle_at = least(settle_at, now())
        WHERE payment_id = $1 AND status = 'processing'`,
      [paymentId, outcome, outcome === 'failed' ? (reason ?? 'sandbox_failed') : null],
    );
  }

  /** Sets a settled transfer's outcome at the PSP, whatever the books say; one still processing stays. */
  async overturn(paymentId: string, outcome: 'completed' | 'failed'): Promise<void> {
    await this.db.query(
      `UPDATE sandbox_pix_transfers SET status = $2, failure_reason = $3
        WHERE payment_id = $1 AND status <> 'processing'`,
      [paymentId, outcome, outcome === 'failed' ? 'sandbox_overturned' : null],
    );
  }

  /** GET /pix of the sandbox PSP: what it received in the window, from its own records. */
  async listReceived(window: { from: Date; to: Date }): Promise<ReceivedPix[]> {
    const { rows } = await this.db.query<ReceivedRow>(
      `SELECT * FROM sandbox_pix_received WHERE received_at >= $1 AND received_at < $2
        ORDER BY received_at, end_to_end_id`,
      [window.from, window.to],
    );
    return rows.map(receivedOf);
  }

  async getReceivedPix(endToEndId: string): Promise<ReceivedPix | undefined> {
    const { rows } = await this.db.query<ReceivedRow>(
      'SELECT * FROM sandbox_pix_received WHERE end_to_end_id = $1',
      [endToEndId],
    );
    return rows[0] && receivedOf(rows[0]);
  }
}

interface ReceivedRow {
  workspace_id: string;
  end_to_end_id: string;
  txid: string | null;
  amount_minor: bigint;
  received_at: Date;
}

const receivedOf = (row: ReceivedRow): ReceivedPix => ({
  endToEndId: row.end_to_end_id,
  txid: row.txid ?? undefined,
  amountMinor: row.amount_minor,
  receivedAt: row.received_at,
  keyOwner: row.workspace_id,
  returns: [],
});

/**
 * The sandbox PSP receives a PIX on a workspace's sandbox key: written in the transaction that
 * credits it (the table is the workspace's), so the PSP and the books agree unless told otherwise.
 */
export async function recordSandboxReceived(
  q: Queryable,
  row: { workspaceId: string; endToEndId: string; txid: string | null; amountMinor: bigint; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO sandbox_pix_received (workspace_id, end_to_end_id, txid, amount_minor, received_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [row.workspaceId, row.endToEndId, row.txid, row.amountMinor, row.at],
  );
}

/** The sandbox PSP's record of a PIX says another amount: a discrepancy to reconcile. */
export async function alterSandboxReceived(
  q: Queryable,
  workspaceId: string,
  endToEndId: string,
  amountMinor: bigint,
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE sandbox_pix_received SET amount_minor = $3 WHERE workspace_id = $1 AND end_to_end_id = $2
     RETURNING end_to_end_id`,
    [workspaceId, endToEndId, amountMinor],
  );
  return rows.length === 1;
}
