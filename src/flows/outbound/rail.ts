/** What a rail tells the outbound flow, and the shapes its steps pass each other. */
import type { Tx } from '../../db/types.ts';
import type { AccountRef } from '../../ledger/accounts.ts';
import type { PaymentKind } from '../../modules/payments/schemas.ts';
import type { PaymentDetails, PaymentRow, PaymentScope } from '../../modules/payments/service.ts';
import type { Deps } from '../../platform/context.ts';
import type { Environment } from '../../platform/environment.ts';
import type { JobKind } from '../../platform/jobs.ts';
import type { Rail } from '../../providers/registry.ts';

/** What a provider said about a transfer, in the flow's terms. */
export interface TransferOutcome {
  status: 'processing' | 'completed' | 'failed' | 'unknown';
  providerRef?: string;
  /** Fields of the payment a completed transfer sets (pix_tx_id, tx_hash). */
  completed?: PaymentDetails;
  /** Fields set when the provider takes it (tx_hash once broadcast). */
  processing?: PaymentDetails;
  failureReason?: string;
}

/** What a rail tells the flow: how to reach its provider and where its money leaves the books. */
export interface OutboundRail {
  /** The registry's rail whose provider carries these transfers. */
  readonly provider: Rail;
  readonly jobPrefix: string;
  readonly paymentKinds: readonly PaymentKind[];
  send(deps: Deps, row: PaymentRow): Promise<TransferOutcome>;
  status(deps: Deps, row: PaymentRow): Promise<TransferOutcome>;
  /** The service's account of the workspace that the money leaves through. */
  settlementAccount(row: PaymentRow): AccountRef;
  /** Runs in the completing transaction (a refund marks its original refunded when whole). */
  afterCompleted?(tx: Tx, row: PaymentRow, at: Date): Promise<void>;
  /** Runs in the failing transaction, once the hold is back in the party's available balance. */
  afterFailed?(tx: Tx, deps: Deps, row: PaymentRow, at: Date): Promise<void>;
  pollDelayMs(deps: Deps, environment: Environment): number;
  /** Which transfers' jobs must not run side by side (default: each payment's own, one by one). */
  serialKey?(job: TransferJob): string;
}

export interface TransferJob {
  paymentId: string;
  workspaceId: string;
  environment: Environment;
}

/** One rail's flow as its steps see it: the rail, the kinds it carries and its two jobs. */
export interface Outbound {
  readonly rail: OutboundRail;
  readonly kinds: ReadonlySet<PaymentKind>;
  readonly sendJob: JobKind<TransferJob>;
  readonly pollJob: JobKind<TransferJob>;
}

/** The statuses of a transfer not yet settled: the only ones a step moves on from. */
export const OPEN: ReadonlySet<string> = new Set(['created', 'processing']);

export const scopeOf = (job: TransferJob): PaymentScope => ({
  workspaceId: job.workspaceId,
  environment: job.environment,
});

export const jobOf = (row: { id: string; workspace_id: string; environment: Environment }): TransferJob => ({
  paymentId: row.id,
  workspaceId: row.workspace_id,
  environment: row.environment,
});

/** `ms` from the deps' clock now. */
export const later = (deps: Deps, ms: number) => new Date(deps.clock.now().getTime() + ms);
