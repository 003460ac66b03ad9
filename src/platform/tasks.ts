import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './context.ts';
import { SetAsideError } from './set-aside.ts';

/** A round may legitimately take this long (a jobs claim lasts at most its 60 s lease) before it counts as stalled. */
const STALL_GRACE_MS = 120_000;

export interface BackgroundTask {
  name: string;
  intervalMs: number;
  /** Does one round of work; returns how many items it handled (a busy round runs again at once). */
  run(deps: Deps): Promise<number>;
  /**
   * Ends what the task's rounds left running (a dispatcher's attempts in flight, its sockets) once
   * the runner has stopped scheduling it: on SIGTERM that work is finished or recorded, never
   * abandoned to a lease.
   */
  stop?(): Promise<void>;
}

/** Runs each background task on its own timer; a task never overlaps itself, and an error waits for the next round. */
export class TaskRunner {
  private timers = new Map<string, NodeJS.Timeout>();
  private running = new Set<Promise<unknown>>();
  private stopped = false;
  private startedAt = Date.now();
  /** When each task last started or finished a round: the worker's heartbeat for /ready. */
  private readonly beats = new Map<string, number>();

  constructor(
    private readonly deps: Deps,
    private readonly tasks: BackgroundTask[],
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.startedAt = Date.now();
    for (const task of this.tasks) this.schedule(task, 0);
  }

  private schedule(task: BackgroundTask, delay: number): void {
    if (this.stopped) return;
    this.timers.set(
      task.name,
      setTimeout(() => {
        this.beats.set(task.name, Date.now());
        const round = task
          .run(this.deps)
          .then((handled) => (handled > 0 ? 0 : task.intervalMs))
          .catch((error) => {
            // Items set aside are an alert of their own: the round went on past them (docs/operations.md).
            if (error instanceof SetAsideError)
              this.log.error(
                { alert: 'set_aside', task: task.name, source: error.source, items: error.items },
                'background task set items aside',
              );
            else this.log.error({ err: error, task: task.name }, 'background task failed');
            return task.intervalMs;
          })
          .then((next) => {
            this.beats.set(task.name, Date.now());
            this.running.delete(round);
            this.schedule(task, next);
          });
        this.running.add(round);
      }, delay),
    );
  }

  /** How many tasks this process runs (0: an API started with --no-workers). */
  get taskCount(): number {
    return this.tasks.length;
  }

  /**
   * The tasks whose loop has gone quiet: no round started or finished within its interval plus
   * STALL_GRACE_MS (a round hung on a call, or a timer that never fired).
   */
  stalled(now = Date.now()): string[] {
    return this.tasks
      .filter(
        (task) => now - (this.beats.get(task.name) ?? this.startedAt) > task.intervalMs + STALL_GRACE_MS,
      )
      .map((task) => task.name);
  }

  /** Schedules no more rounds, waits for the running ones, then stops each task that has work of its own. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    await Promise.allSettled([...this.running]);
    await Promise.all(this.tasks.map((task) => this.stopTask(task)));
  }

  private async stopTask(task: BackgroundTask): Promise<void> {
    try {
      await task.stop?.();
    } catch (error) {
      this.log.error({ err: error, task: task.name }, 'background task failed to stop');
    }
  }
}
