import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './context.ts';

export interface BackgroundTask {
  name: string;
  intervalMs: number;
  /** Does one round of work; returns how many items it handled (a busy round runs again at once). */
  run(deps: Deps): Promise<number>;
}

/** Runs each background task on its own timer; a task never overlaps itself, and an error waits for the next round. */
export class TaskRunner {
  private timers = new Map<string, NodeJS.Timeout>();
  private running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly deps: Deps,
    private readonly tasks: BackgroundTask[],
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    for (const task of this.tasks) this.schedule(task, 0);
  }

  private schedule(task: BackgroundTask, delay: number): void {
    if (this.stopped) return;
    this.timers.set(
      task.name,
      setTimeout(() => {
        const round = task
          .run(this.deps)
          .then((handled) => (handled > 0 ? 0 : task.intervalMs))
          .catch((error) => {
            this.log.error({ err: error, task: task.name }, 'background task failed');
            return task.intervalMs;
          })
          .then((next) => {
            this.running.delete(round);
            this.schedule(task, next);
          });
        this.running.add(round);
      }, delay),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    await Promise.allSettled([...this.running]);
  }
}
