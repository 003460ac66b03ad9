import type { App } from '../schema.ts';

/** Every answer names its request (its log lines name its route: request-log.ts). */
export function responseHeaders(app: App): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No answer (JSON, HTML page, not-found) may be sniffed into another type by a browser.
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
}

/** An answer replayed from an Idempotency-Key record says so. */
export function replayedHeader(app: App): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.idempotencyReplayed) reply.header('idempotency-replayed', 'true');
    done(null, payload);
  });
}
