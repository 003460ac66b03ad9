import type { Deps } from '../context.ts';
import type { App } from '../schema.ts';
import { writePath } from '../write-path.ts';

/** What a request carries through its hooks and handler (see src/platform/fastify.d.ts). */
export function requestState(app: App, deps: Deps): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('idempotencyReplayed', false);
  app.decorateRequest('usedWrite', false);
  app.decorateRequest('write', writePath(deps));
}
