import { setMaxListeners } from 'node:events';
import { isCitusCluster } from '../../../db/distribute.ts';
import type { Deps } from '../../../platform/context.ts';
import { type SendOutcome, WebhookHttp } from '../send.ts';
import { claimDue, type LeasedDelivery } from './claim.ts';
import { prepare } from './prepare.ts';
import { AttemptRecorder, judge } from './record.ts';

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
  /**
   * How long stop() lets the attempts in flight wait for their answers; it then cuts those still
   * waiting, which are recorded as interrupted. Shorter than the attempt timeout, so a shutdown
   * fits in the grace period a container is given.
   */
  stopWaitMs?: number;
  random?: () => number;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * Sends pending webhook deliveries, in the steps of one attempt: claim (due deliveries leased in a
 * committed transaction, endpoints served round-robin, at most `perEndpoint` in flight each),
 * prepare (sign), send (POST outside any transaction) and record (the attempt and the schedule's
 * next step, group-committed). Any number of dispatchers may share a database; a crash between
 * claim and record only delays the delivery until its lease runs out (at-least-once, same
 * webhook-id), and stop() records what is in flight so a shutdown delays nothing.
 */
export class WebhookDispatcher {
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly roundWaitMs: number;
  private readonly stopWaitMs: number;
  private readonly random: () => number;
  private readonly http = new WebhookHttp();
  /** Made by the first round: it writes to that round's database, the only one a dispatcher serves. */
  private recorder: AttemptRecorder | undefined;
  /** Whether that database is a Citus cluster, where the claim goes workspace by workspace: asked once. */
  private claimPerWorkspace: boolean | undefined;
  private readonly inFlightByEndpoint = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Aborted by stop() once it has waited stopWaitMs: cuts the attempts still waiting for an answer. */
  private readonly interrupt = new AbortController();
  private stopping = false;
  private lastEndpoint = NIL_UUID;
  private backgroundError: unknown;
  private finished = 0;

  constructor(options: DispatcherOptions = {}) {
    this.perEndpoint = options.perEndpoint ?? 8;
    this.maxInFlight = options.maxInFlight ?? 256;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.leaseMs = options.leaseMs ?? this.timeoutMs + 45_000;
    this.roundWaitMs = options.roundWaitMs ?? 250;
    this.stopWaitMs = options.stopWaitMs ?? 5_000;
    this.random = options.random ?? Math.random;
    // Every attempt in flight listens for the interrupt: that many listeners are expected, not a leak.
    setMaxListeners(this.maxInFlight + 1, this.interrupt.signal);
  }

  /**
   * One round: claims what is due (within the bounds), starts those attempts, and returns when one
   * attempt finishes or after roundWaitMs, leaving the rest to finish in the background. Returns how
   * many deliveries it claimed (or finished meanwhile). A stopped dispatcher claims nothing.
   */
  async run(deps: Deps): Promise<number> {
    this.throwBackgroundError();
    const room = this.maxInFlight - this.inFlight.size;
    if (room <= 0 || this.stopping) return 0;
    this.recorder ??= new AttemptRecorder(deps.db, this.leaseMs);
    this.claimPerWorkspace ??= await isCitusCluster(deps.db);
    const claims = await claimDue(deps, {
      room,
      perEndpoint: this.perEndpoint,
      inFlightByEndpoint: this.inFlightByEndpoint,
      afterEndpoint: this.lastEndpoint,
      leaseMs: this.leaseMs,
      perWorkspace: this.claimPerWorkspace,
    });
    if (claims.length > 0) this.lastEndpoint = claims[claims.length - 1]!.endpoint_id;
    for (const claim of claims) this.track(claim.endpoint_id, this.attempt(deps, claim));
    if (this.inFlight.size === 0) return claims.length;
    // Come back as soon as an attempt finishes (its slot can take the next due delivery), or after roundWaitMs.
    const finishedBefore = this.finished;
    await within(Promise.race(this.inFlight), this.roundWaitMs);
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

  /**
   * Ends the dispatcher on shutdown: it claims nothing more, gives the attempts in flight up to
   * stopWaitMs for their answers, cuts the rest, and resolves once every attempt is recorded (an
   * interrupted one on the retry schedule like a timeout), so none is left to its lease. Throws what
   * kept an attempt from being recorded.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await within(this.idle(), this.stopWaitMs);
    this.interrupt.abort();
    await this.close();
    this.throwBackgroundError();
  }

  private throwBackgroundError(): void {
    if (this.backgroundError === undefined) return;
    const error = this.backgroundError;
    this.backgroundError = undefined;
    throw error;
  }

  private track(endpointId: string, work: Promise<void>): void {
    this.inFlightByEndpoint.set(endpointId, (this.inFlightByEndpoint.get(endpointId) ?? 0) + 1);
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
  }

  /** One delivery's attempt: prepared and sent, then recorded whatever came of it. */
  private async attempt(deps: Deps, delivery: LeasedDelivery): Promise<void> {
    const startedAt = deps.clock.now();
    const outcome = await this.send(deps, delivery, startedAt);
    await this.recorder!.record(judge(delivery, startedAt, outcome, deps.clock.now(), this.random));
  }

  private async send(deps: Deps, delivery: LeasedDelivery, startedAt: Date): Promise<SendOutcome> {
    try {
      const prepared = prepare(deps, delivery, startedAt);
      if ('refused' in prepared) return prepared.refused;
      const { url, headers, body, allowPrivate } = prepared.request;
      return await this.http.post(url, headers, body, {
        timeoutMs: this.timeoutMs,
        allowPrivate,
        interrupt: this.interrupt.signal,
      });
    } catch (error) {
      // An attempt that fails before anything is sent (a signing secret that cannot be opened, a
      // URL the HTTP client refuses) is the delivery's own failure: recorded with its error and
      // retried on the schedule to its end like any other, never claimed again after every lease
      // with nothing recorded.
      return { statusCode: null, error: notSentError(error), durationMs: 0 };
    }
  }
}

/** A failure before any byte was sent, as the delivery log shows it. */
const notSentError = (error: unknown): string =>
  `not sent: ${error instanceof Error ? error.message : String(error)}`;

/** Resolves when `work` settles or after `waitMs`, whichever comes first. */
async function within(work: Promise<unknown>, waitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work,
    new Promise((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
}
