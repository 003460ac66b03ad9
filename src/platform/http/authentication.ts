import { authenticate, requireSessionUser } from '../auth/authenticate.ts';
import type { Deps } from '../context.ts';
import type { App } from '../schema.ts';
import type { ChargeFailedAuth } from './rate-limits.ts';
import { logWorkspace } from './request-log.ts';

/**
 * Sets request.sessionUser on a route whose auth mode is 'user', and request.caller on every other
 * /v1/:env route but those marked 'none'; a failure also spends the address's allowance.
 */
export function authentication(app: App, deps: Deps, chargeFailedAuth: ChargeFailedAuth): void {
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    const mode = request.routeOptions.config.auth;
    if (mode === 'user') {
      request.sessionUser = await requireSessionUser(deps, request).catch(async (error) => {
        await chargeFailedAuth(request, error);
        throw error;
      });
      return;
    }
    if (!url?.startsWith('/v1/:env') || mode === 'none') return;
    request.caller = await authenticate(deps, request).catch(async (error) => {
      await chargeFailedAuth(request, error);
      throw error;
    });
    logWorkspace(request, reply);
  });
}
