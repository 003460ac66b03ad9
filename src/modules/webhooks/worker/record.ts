import { GroupCommit } from '../../../db/group-commit.ts';
import { type Database, isRetryable, type Tx } from '../../../db/types.ts';
import { webhookAttempts, webhookDeliveryLag } from '../../../platform/metrics.ts';
import {
  clearEndpointsFailing,
  disableEndpoint,
  insertAttempts,
  markEndpointFailing,
  settleDeliveries,
} from '../repo.ts';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from '../schedule.ts';
import type { SendOutcome } from '../send.ts';
import type { LeasedDelivery } from './claim.ts';

/** An attempt's outcome and what it makes of its delivery: delivered, failed for good, or pending its next step. */
export interface JudgedAttempt {
  delivery: LeasedDelivery;
  attempt: number;
  startedAt: Date;
  outcome: SendOutcome;
  now: Date;
  success: boolean;
  status: 'delivered' | 'failed' | 'pending';
  nextAt: Date | null;
}

/** A 2xx delivers; a 410 fails the delivery (and disables its endpoint); anything else waits for the schedule's next step. */
export function judge(
  delivery: LeasedDelivery,
  startedAt: Date,
  outcome: SendOutcome,
  now: Date,
  random: () => number,
): JudgedAttempt {
  const attempt = delivery.attempts + 1;
  const success = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const delay = success || outcome.statusCode === 410 ? null : retryDelayMs(attempt, random);
  return {
    delivery,
    attempt,
    startedAt,
    outcome,
    now,
    success,
    status: success ? 'delivered' : delay === null ? 'failed' : 'pending',
    nextAt: delay === null ? null : new Date(now.getTime() + delay),
  };
}

/** Tries of a batch refused with a deadlock or serialization failure (another worker's batch). */
const RECORD_TRIES = 3;

/**
 * Records attempts in group commits: the outcomes that finish in one turn of the event loop are
 * gathered into one write of three set-based statements, and the project's group commit queues the
 * writes that come while a batch commits into the next transaction, one per batch instead of one
 * per delivery, which is what lets one worker send hundreds per second. The gathering stays here
 * because the group commit starts a batch as soon as its lane is free and runs each write's
 * statements apart: a burst of answers would commit its first outcome alone and cost three
 * statements per attempt, and every claim round frees only the slots of the outcomes committed.
 */
export class AttemptRecorder {
  private readonly group: GroupCommit;
  private gathering: { batch: JudgedAttempt[]; recorded: Promise<void> } | undefined;

  constructor(db: Database, maxWaitMs: number) {
    // One lane: one outcome transaction at a time, as the endpoint rows of a batch are locked in no
    // set order. Past its lease an outcome is fenced off anyway: it is refused rather than kept waiting.
    this.group = new GroupCommit(db, { lanes: 1, maxWaitMs });
  }

  /** Resolves once the attempt is committed; throws what refused it (the delivery then waits for its lease). */
  record(judged: JudgedAttempt): Promise<void> {
    if (!this.gathering) {
      const batch: JudgedAttempt[] = [];
      const recorded = new Promise((resolve) => setImmediate(resolve)).then(() => {
        this.gathering = undefined;
        return this.commit(batch);
      });
      this.gathering = { batch, recorded };
    }
    this.gathering.batch.push(judged);
    return this.gathering.recorded;
  }

  private async commit(batch: JudgedAttempt[]): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        // Set-based statements never leave the transaction aborted short of a database error: no savepoint.
        await this.group.run('outcomes', (tx) => writeAttempts(tx, batch), { savepoint: false });
        break;
      } catch (error) {
        if (tries >= RECORD_TRIES || !isRetryable(error)) throw error;
      }
    }
    for (const judged of batch) observeAttempt(judged);
  }
}

/** Records a batch of attempts: the attempt rows, the endpoints' health, the deliveries' next step. */
async function writeAttempts(tx: Tx, batch: JudgedAttempt[]): Promise<void> {
  await insertAttempts(
    tx,
    batch.map(({ delivery, outcome, attempt, startedAt }) => ({
      workspaceId: delivery.workspace_id,
      deliveryId: delivery.id,
      attempt,
      url: delivery.url,
      startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
    })),
  );
  const healthy = batch.filter((judged) => judged.success).map(({ delivery }) => endpointOf(delivery));
  if (healthy.length > 0) await clearEndpointsFailing(tx, healthy);
  for (const judged of batch) if (!judged.success) await recordFailure(tx, judged);
  await settleDeliveries(
    tx,
    batch.map(({ delivery, outcome, status, nextAt, now }) => ({
      workspaceId: delivery.workspace_id,
      deliveryId: delivery.id,
      leaseToken: delivery.lease_token,
      url: delivery.url,
      statusCode: outcome.statusCode,
      error: outcome.error,
      status,
      nextAttemptAt: nextAt,
      at: now,
    })),
  );
}

const endpointOf = (delivery: LeasedDelivery) => ({
  workspaceId: delivery.workspace_id,
  endpointId: delivery.endpoint_id,
});

/** A failed attempt's mark on its endpoint: 410 disables it at once, five days of failures too. */
async function recordFailure(tx: Tx, { delivery, outcome, now }: JudgedAttempt): Promise<void> {
  const { workspaceId, endpointId } = endpointOf(delivery);
  if (outcome.statusCode === 410) {
    await disableEndpoint(tx, workspaceId, endpointId, 'gone', now);
    return;
  }
  const since = await markEndpointFailing(tx, workspaceId, endpointId, now);
  if (since && now.getTime() - since.getTime() >= DISABLE_AFTER_FAILING_MS)
    await disableEndpoint(tx, workspaceId, endpointId, 'failing', now);
}

/** Moves the webhook metrics for an attempt once it is recorded: its result and, delivered, its lag. */
function observeAttempt(judged: JudgedAttempt): void {
  webhookAttempts.inc({ result: judged.status === 'pending' ? 'retry' : judged.status });
  if (judged.success)
    webhookDeliveryLag.observe(
      Math.max(0, judged.now.getTime() - Date.parse(judged.delivery.payload.created_at)) / 1000,
    );
}
