import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/config.ts';
import { TaskRunner } from '../../src/platform/tasks.ts';
import { BACKGROUND_TASKS } from '../../src/worker.ts';
import { startWorld, type World } from './world.ts';

/** A World whose app listens on 127.0.0.1 (a free port) with its background workers running, as `lastro serve` does. */
export interface ListeningWorld extends World {
  baseUrl: string;
}

export async function startListeningWorld(overrides: Partial<Config> = {}): Promise<ListeningWorld> {
  const world = await startWorld({ sandboxSettleMs: 200, webhookAllowPrivate: true, ...overrides });
  await world.app.listen({ port: 0, host: '127.0.0.1' });
  const runner = new TaskRunner(world.deps, [...BACKGROUND_TASKS], world.app.log);
  runner.start();
  const { port } = world.app.server.address() as AddressInfo;
  const close = world.close;
  return Object.assign(world, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await runner.stop();
      await close();
    },
  });
}
