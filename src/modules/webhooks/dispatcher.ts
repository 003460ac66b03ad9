import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Tx } from '../../db/types.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { webhookAttempts, webhookDeliveryLag } from '../../platform/metrics.ts';
import { type EmittedEvent, eventView } from '../../platform/outbox.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { disableEndpoint } from './repo.ts';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from './schedule.ts';
import { type SendOutcome, WebhookHttp } from './send.ts';
import { privateAllowed, urlProblem } from './url-policy.ts';

export interface DispatcherOptions {
  /** Attempts in flight at once to one endpoint, so a slow receiver holds at most this many slots. */
  perEndpoint?: number;
  /** Attempts in flight at once in this process. */
  maxInFlight?: number;
  /** Per attempt: connect, send, headers and body (API.md: 15 s). */
  timeoutMs?: number;
  /** How long a claim holds a delivery; past it (a crashed worker) another dispatcher takes it again. */
  leaseMs?: number;
  /** How long run() waits at most for an attempt in flight to finish before returning. */
  roundWaitMs?: number;
  random?: () => number;
}

interface Claim {
  workspace_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  environment: Environment;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  payload: EmittedEvent;
}

type LeasedClaim = Claim & { lease_token: string };

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * Sends pending webhook deliveries. One round claims due deliveries with FOR UPDATE SKIP LOCKED
 * (endpoints served round-robin, at most `perEndpoint` in flight each), commits the claim, POSTs
 * each one outside any transaction, and records every attempt in its own transaction with the
 * next step of the schedule. Any number of dispatchers may share a database; a crash between claim
 * and record only delays the delivery until its lease runs out (at-least-once, same webhook-id).
 */
export class WebhookDispatcher {
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly roundWaitMs: number;
  private readonly random: () => number;
  private readonly http = new WebhookHttp();
  private readonly inFlightByEndpoint = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private lastEndpoint = NIL_UUID;
  private backgroundError: unknown;
  private readonly outcomes: PendingOutcome[] = [];
  private flushing: Promise<void> | undefined;
  private finished = 0;

  constructor(options: DispatcherOptions = {}) {
    this.perEndpoint = options.perEndpoint ?? 8;
    this.maxInFlight = options.maxInFlight ?? 256;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.leaseMs = options.leaseMs ?? this.timeoutMs + 45_000;
    this.roundWaitMs = options.roundWaitMs ?? 250;
    this.random = options.random ?? Math.random;
  }

  /**
   * One round: claims what is due (within the bounds), starts those attempts, and returns when one
   * attempt finishes or after roundWaitMs, leaving the rest to finish in the background. Returns how
   * many deliveries it claimed (or finished meanwhile).
   */
  async run(deps: Deps): Promise<number> {
    if (this.backgroundError !== undefined) {
      const error = this.backgroundError;
      this.backgroundError = undefined;
      throw error;
    }
    const room = this.maxInFlight - this.inFlight.size;
    if (room <= 0) return 0;
    const claims = await this.claim(deps, room);
    for (const claim of claims) this.track(claim.endpoint_id, this.attempt(deps, claim));
    if (this.inFlight.size === 0) return claims.length;
    // Come back as soon as an attempt finishes (its slot can take the next due delivery), or after roundWaitMs.
    const finishedBefore = this.finished;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.race(this.inFlight),
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.roundWaitMs);
      }),
    ]);
    clearTimeout(timer);
    // Non-zero keeps the task runner going at once while slots are freeing up.
    return claims.length || this.finished - finishedBefore;
  }

  /** Resolves when no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Waits for attempts in flight, then closes idle keep-alive sockets. */
  async close(): Promise<void> {
    await this.idle();
    this.http.close();
  }

  private track(endpointId: string, work: Promise<void>): Promise<void> {
    const tracked = work
      .catch((error) => {
        this.backgroundError ??= error;
      })
      .finally(() => {
        this.finished++;
        this.inFlight.delete(tracked);
        const left = (this.inFlightByEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) this.inFlightByEndpoint.set(endpointId, left);
        else this.inFlightByEndpoint.delete(endpointId);
      });
    this.inFlight.add(tracked);
    return tracked;
  }

  private async claim(deps: Deps, room: number): Promise<LeasedClaim[]> {
    const now = deps.clock.now();
    const saturated = [...this.inFlightByEndpoint].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
    return deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<Claim>(
        `SELECT d.workspace_id, d.id, d.endpoint_id, d.event_id, d.attempts, e.environment, e.url,
                e.secret_enc, e.previous_secret_enc, e.previous_secret_expires_at, ev.payload
           FROM (SELECT workspace_id, id, environment, url, secret_enc, previous_secret_enc, previous_secret_expires_at
                   FROM webhook_endpoints
                  WHERE status = 'enabled' AND deleted_at IS NULL AND NOT (id = ANY ($3::uuid[]))
                  ORDER BY id <= $4::uuid, id) e
          CROSS JOIN LATERAL (
                 SELECT workspace_id, id, endpoint_id, event_id, attempts, next_attempt_at
                   FROM webhook_deliveries
                  WHERE workspace_id = e.workspace_id AND endpoint_id = e.id AND status = 'pending'
                    AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
                  ORDER BY next_attempt_at, id
                  LIMIT $2
                    FOR UPDATE SKIP LOCKED) d
           JOIN events ev ON ev.id = d.event_id
          LIMIT $5`,
        [now, this.perEndpoint, saturated, this.lastEndpoint, room],
      );
      // Keep each endpoint within its bound, counting what this process already has in flight.
      const taken = new Map<string, number>();
      const claims = rows.filter((row) => {
        const count = (this.inFlightByEndpoint.get(row.endpoint_id) ?? 0) + (taken.get(row.endpoint_id) ?? 0);
        if (count >= this.perEndpoint) return false;
        taken.set(row.endpoint_id, (taken.get(row.endpoint_id) ?? 0) + 1);
        return true;
      });
      if (claims.length === 0) return [];
      const token = randomUUID();
      await tx.query(
        `UPDATE webhook_deliveries SET locked_until = $3, lease_token = $4
          WHERE (workspace_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`,
        [
          claims.map((c) => c.workspace_id),
          claims.map((c) => c.id),
          new Date(now.getTime() + this.leaseMs),
          token,
        ],
      );
      for (const [endpointId, count] of taken)
        this.inFlightByEndpoint.set(endpointId, (this.inFlightByEndpoint.get(endpointId) ?? 0) + count);
      this.lastEndpoint = claims[claims.length - 1]!.endpoint_id;
      return claims.map((claim) => ({ ...claim, lease_token: token }));
    });
  }

  private async attempt(deps: Deps, claim: LeasedClaim): Promise<void> {
    const startedAt = deps.clock.now();
    let outcome: SendOutcome;
    try {
      outcome = await this.send(deps, claim, startedAt);
    } catch (error) {
      // An attempt that fails before anything is sent (a signing secret that cannot be opened, a
      // URL the HTTP client refuses) is the delivery's own failure: recorded with its error and
      // retried on the schedule to its end like any other, never claimed again after every lease
      // with nothing recorded.
      outcome = { statusCode: null, error: notSentError(error), durationMs: 0 };
    }
    await this.record(deps, claim, startedAt, outcome);
  }

  /** Signs and POSTs one delivery; the outcome of a refused URL is recorded without sending. */
  private async send(deps: Deps, claim: LeasedClaim, startedAt: Date): Promise<SendOutcome> {
    const allowPrivate = privateAllowed(claim.environment, deps.config.webhookAllowPrivate);
    const problem = urlProblem(claim.url, claim.environment, allowPrivate);
    if (problem) return { statusCode: null, error: `destination refused: url ${problem}`, durationMs: 0 };
    let secrets: string[];
    try {
      secrets = [deps.sealer.open(claim.secret_enc)];
      if (
        claim.previous_secret_enc &&
        claim.previous_secret_expires_at &&
        claim.previous_secret_expires_at > startedAt
      )
        secrets.push(deps.sealer.open(claim.previous_secret_enc));
    } catch {
      throw new Error("the endpoint's signing secret could not be opened");
    }
    const body = JSON.stringify(eventView(claim.payload));
    // The signed timestamp is the wall clock: receivers compare it with theirs (5 min tolerance).
    const timestamp = new Date();
    const signature = secrets
      .map((secret) => new Webhook(secret).sign(claim.event_id, timestamp, body))
      .join(' ');
    return this.http.post(
      claim.url,
      {
        'content-type': 'application/json',
        'user-agent': 'Lastro-Webhooks/1.0',
        'webhook-id': claim.event_id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      { timeoutMs: this.timeoutMs, allowPrivate },
    );
  }

  /**
   * Queues an attempt's outcome for the next group commit and resolves once it is recorded.
   * Outcomes that arrive while a commit runs go together in the next one: one transaction per
   * batch instead of one per delivery, which is what lets one worker send hundreds per second.
   */
  private record(deps: Deps, claim: LeasedClaim, startedAt: Date, outcome: SendOutcome): Promise<void> {
    const now = deps.clock.now();
    const attempt = claim.attempts + 1;
    const success = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const delay = success || outcome.statusCode === 410 ? null : retryDelayMs(attempt, this.random);
    return new Promise<void>((resolve, reject) => {
      this.outcomes.push({
        claim,
        attempt,
        startedAt,
        outcome,
        now,
        success,
        status: success ? 'delivered' : delay === null ? 'failed' : 'pending',
        nextAt: delay === null ? null : new Date(now.getTime() + delay),
        resolve,
        reject,
      });
      if (!this.flushing) this.flushing = this.flushLoop(deps);
    });
  }

  private async flushLoop(deps: Deps): Promise<void> {
    // Let the attempts finishing in this same tick join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.outcomes.length > 0) {
      const batch = this.outcomes.splice(0, 500);
      try {
        await deps.db.transaction((tx) => writeOutcomes(tx, batch));
        for (const item of batch) {
          observeAttempt(item);
          item.resolve();
        }
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.flushing = undefined;
  }
}

/** A failure before any byte was sent, as the delivery log shows it. */
const notSentError = (error: unknown): string =>
  `not sent: ${error instanceof Error ? error.message : String(error)}`;

interface PendingOutcome {
  claim: LeasedClaim;
  attempt: number;
  startedAt: Date;
  outcome: SendOutcome;
  now: Date;
  success: boolean;
  status: 'delivered' | 'failed' | 'pending';
  nextAt: Date | null;
  resolve(): void;
  reject(error: unknown): void;
}

/** Moves the webhook metrics for an attempt once it is recorded: its result and, delivered, its lag. */
function observeAttempt(item: PendingOutcome): void {
  webhookAttempts.inc({ result: item.status === 'pending' ? 'retry' : item.status });
  if (item.success)
    webhookDeliveryLag.observe(
      Math.max(0, item.now.getTime() - Date.parse(item.claim.payload.created_at)) / 1000,
    );
}

/**
 * Records a batch of attempts: the attempt rows, the endpoints' health, the deliveries' next step.
 * Over 70 lines: three set-based statements over the same batch columns; most of its length is their
 * parameter arrays, and splitting them would pass the columns around three times.
 */
async function writeOutcomes(tx: Tx, batch: PendingOutcome[]): Promise<void> {
  const column = <T>(pick: (item: PendingOutcome) => T) => batch.map(pick);
  await tx.query(
    `INSERT INTO webhook_delivery_attempts
       (workspace_id, delivery_id, id, attempt, url, started_at, duration_ms, status_code, error)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::timestamptz[],
                          $7::int[], $8::int[], $9::text[])`,
    [
      column((i) => i.claim.workspace_id),
      column((i) => i.claim.id),
      column(() => newId()),
      column((i) => i.attempt),
      column((i) => i.claim.url),
      column((i) => i.startedAt.toISOString()),
      column((i) => i.outcome.durationMs),
      column((i) => i.outcome.statusCode),
      column((i) => i.outcome.error),
    ],
  );
  const succeeded = batch.filter((i) => i.success);
  if (succeeded.length > 0) {
    await tx.query(
      `UPDATE webhook_endpoints SET failing_since = NULL
        WHERE (workspace_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[])) AND failing_since IS NOT NULL`,
      [succeeded.map((i) => i.claim.workspace_id), succeeded.map((i) => i.claim.endpoint_id)],
    );
  }
  for (const item of batch) {
    if (item.success) continue;
    const { workspace_id: workspaceId, endpoint_id: endpointId } = item.claim;
    if (item.outcome.statusCode === 410) {
      await disableEndpoint(tx, workspaceId, endpointId, 'gone', item.now);
      continue;
    }
    const { rows } = await tx.query<{ failing_since: Date }>(
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $3)
        WHERE workspace_id = $1 AND id = $2 AND status = 'enabled' RETURNING failing_since`,
      [workspaceId, endpointId, item.now],
    );
    const since = rows[0]?.failing_since;
    if (since && item.now.getTime() - since.getTime() >= DISABLE_AFTER_FAILING_MS)
      await disableEndpoint(tx, workspaceId, endpointId, 'failing', item.now);
  }
  // The lease token fences off a worker whose lease ran out; a delivery whose endpoint was
  // disabled or deleted meanwhile fails instead of waiting for ever.
  await tx.query(
    `UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, url = u.url, last_status_code = u.code, last_error = u.error,
            status = CASE WHEN u.status = 'pending' AND (e.status <> 'enabled' OR e.deleted_at IS NOT NULL)
                          THEN 'failed' ELSE u.status END,
            next_attempt_at = CASE WHEN u.status = 'pending' AND e.status = 'enabled' AND e.deleted_at IS NULL
                                   THEN u.next_at END,
            delivered_at = CASE WHEN u.status = 'delivered' THEN u.at ELSE d.delivered_at END,
            locked_until = NULL, lease_token = NULL
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::int[], $6::text[], $7::text[],
                   $8::timestamptz[], $9::timestamptz[])
              AS u(workspace_id, id, token, url, code, error, status, next_at, at),
            webhook_endpoints e
      WHERE d.workspace_id = u.workspace_id AND d.id = u.id AND d.lease_token = u.token
        AND e.workspace_id = d.workspace_id AND e.id = d.endpoint_id`,
    [
      column((i) => i.claim.workspace_id),
      column((i) => i.claim.id),
      column((i) => i.claim.lease_token),
      column((i) => i.claim.url),
      column((i) => i.outcome.statusCode),
      column((i) => i.outcome.error),
      column((i) => i.status),
      column((i) => i.nextAt?.toISOString() ?? null),
      column((i) => i.now.toISOString()),
    ],
  );
}

/** The dispatcher of this process (the worker's). */
export const webhookDispatcher = new WebhookDispatcher();

export const webhookDispatchTask: BackgroundTask = {
  name: 'webhook-dispatch',
  intervalMs: 50,
  run: (deps) => webhookDispatcher.run(deps),
};
