import type { Deps } from '../../../platform/context.ts';
import type { BackgroundTask } from '../../../platform/tasks.ts';
import type { PixProvider } from '../../../providers/pix/provider.ts';

const registered = new WeakSet<PixProvider>();

/**
 * Registers our notification URL with the live PSP (PUT /webhook/{chave}, idempotent) once per
 * process, from the workers: a PSP that is down never holds up the start, the task retries.
 */
export const pixWebhookRegistration: BackgroundTask = {
  name: 'pix-webhook-registration',
  intervalMs: 30_000,
  async run(deps: Deps) {
    if (!deps.providers.has('pix', 'live')) return 0;
    const provider = deps.providers.get('pix', 'live');
    if (!provider.registerWebhook || registered.has(provider)) return 0;
    await provider.registerWebhook();
    registered.add(provider);
    return 0;
  },
};
