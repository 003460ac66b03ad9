/**
 * Stopping the runner (SIGTERM) reaches each task's own work: a task's stop() runs once its last
 * round has ended, and a task that fails to stop does not keep the others from stopping.
 */
import pino from 'pino';
import { expect, it } from 'vitest';
import type { Deps } from '../../src/platform/context.ts';
import { type BackgroundTask, TaskRunner } from '../../src/platform/tasks.ts';

it("stop() waits for the running round, then stops each task's own work", async () => {
  const seen: string[] = [];
  let endRound: () => void = () => {};
  let started: () => void = () => {};
  const roundStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const slow: BackgroundTask = {
    name: 'slow',
    intervalMs: 10,
    run: () => {
      started();
      return new Promise((resolve) => {
        endRound = () => {
          seen.push('round ended');
          resolve(1);
        };
      });
    },
    stop: async () => {
      seen.push('slow stopped');
    },
  };
  const broken: BackgroundTask = {
    name: 'broken',
    intervalMs: 10,
    run: async () => 0,
    stop: async () => {
      throw new Error('cannot stop');
    },
  };
  const plain: BackgroundTask = { name: 'plain', intervalMs: 10, run: async () => 0 };
  const errors: unknown[] = [];
  const log = pino({ level: 'silent' });
  log.error = ((details: unknown) => errors.push(details)) as typeof log.error;
  const runner = new TaskRunner({} as Deps, [slow, broken, plain], log);
  runner.start();
  await roundStarted;

  const stopped = runner.stop();
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(seen).toEqual([]);
  endRound();
  await stopped;
  expect(seen).toEqual(['round ended', 'slow stopped']);
  expect(errors).toMatchObject([{ task: 'broken' }]);
});
