import type { App } from '../schema.ts';

/** Every answer names its request, and the log lines of a routed request name the route. */
export function responseHeaders(app: App): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // No answer (JSON, HTML page, not-found) may be sniffed into another type by a browser.
    reply.header('x-content-type-options', 'nosniff');
    if (request.routeOptions.url) {
      request.log = request.log.child({ route: request.routeOptions.url });
      reply.log = request.log;
    }
  });
}

/** An answer replayed from an Idempotency-Key record says so. */
export function replayedHeader(app: App): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.idempotencyReplayed) reply.header('idempotency-replayed', 'true');
    return payload;
  });
}
