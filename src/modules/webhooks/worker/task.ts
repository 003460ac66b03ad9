import type { BackgroundTask } from '../../../platform/tasks.ts';
import { type DispatcherOptions, WebhookDispatcher } from './dispatcher.ts';

/**
 * The worker's webhook task. It owns its dispatcher: the first round after a start makes one, and
 * the runner's stop() ends it (the attempts in flight recorded, its sockets closed), so no
 * dispatcher outlives the runner that ran it and a runner started again gets a fresh one.
 */
export function createWebhookDispatchTask(options: DispatcherOptions = {}): BackgroundTask {
  let dispatcher: WebhookDispatcher | undefined;
  return {
    name: 'webhook-dispatch',
    intervalMs: 50,
    run: (deps) => {
      dispatcher ??= new WebhookDispatcher(options);
      return dispatcher.run(deps);
    },
    stop: async () => {
      const ending = dispatcher;
      dispatcher = undefined;
      await ending?.stop();
    },
  };
}

/** The webhooks module's task, as its manifest declares it. */
export const webhookDispatchTask = createWebhookDispatchTask();
