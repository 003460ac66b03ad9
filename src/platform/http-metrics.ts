import type { FastifyInstance } from 'fastify';
import { httpRequestDuration } from './metrics.ts';

/**
 * Times every request by its route template (`/v1/:env/payments/:id`, never the raw URL, so ids stay
 * out of the labels); requests no route matched share one label.
 */
export function httpMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
