import cookie from '@fastify/cookie';
import { MODULES } from './modules/index.ts';
import type { Deps } from './platform/context.ts';
import { validators } from './platform/http/ajv.ts';
import { authentication } from './platform/http/authentication.ts';
import { bodyGuards, jsonBodiesOnly } from './platform/http/body-guards.ts';
import { docs, openapiRoute } from './platform/http/docs.ts';
import { errorHandlers } from './platform/http/error-handlers.ts';
import { replayedHeader, responseHeaders } from './platform/http/headers.ts';
import { loginThrottle, rateLimits } from './platform/http/rate-limits.ts';
import { requestState } from './platform/http/request-state.ts';
import { routes } from './platform/http/routes.ts';
import { createServer, type ServerOptions } from './platform/http/server.ts';
import { httpMetrics } from './platform/http-metrics.ts';
import type { App } from './platform/schema.ts';

export type BuildOptions = ServerOptions;

/**
 * Builds the HTTP app. It does not listen: main.ts does, tests use inject().
 *
 * The order is the contract. Hooks of one kind run in the order they are added, so a request is
 * labelled (headers), its cookies read, counted (rate limits) and only then authenticated; its body
 * is guarded before any schema sees it. A hook reaches only the routes added after it, and the
 * encapsulated /docs pages only the hooks added before them; swagger and the route catalogue see
 * only the routes registered after them, so the modules' routes come last.
 */
export async function buildApp(deps: Deps, options: BuildOptions = {}): Promise<App> {
  const app = createServer(deps, options); //  logger (a line a request), request ids, timeouts, proxies
  validators(app); //                           Ajv: strict bodies, coerced query strings and params
  httpMetrics(app); //                          onResponse: duration by route template
  requestState(app, deps); //                   request.caller, .sessionUser, .write …
  errorHandlers(app); //                        errors and unmatched URLs in the error contract
  responseHeaders(app); //                      onRequest: X-Request-Id, nosniff, the route in the log
  jsonBodiesOnly(app); //                       no text/plain parser, in this context or any below
  await app.register(cookie); //                onRequest: cookies, read by rate limits and authentication
  loginThrottle(app, deps); //                  app.loginThrottle (Redis when REDIS_URL is set)
  const chargeFailedAuth = await rateLimits(app, deps); // onRequest: every request counted first
  authentication(app, deps, chargeFailedAuth); // onRequest: request.caller or request.sessionUser
  bodyGuards(app); //                           preValidation: optional bodies, party scope, hostile JSON
  replayedHeader(app); //                       onSend: Idempotency-Replayed
  await docs(app, deps.config); //              swagger (collects later routes) and the /docs pages
  routes(app, deps, MODULES); //                onRoute: the route catalogue, then every module's routes
  openapiRoute(app); //                         GET /openapi.json
  return app;
}
