import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { App } from '../schema.ts';

/**
 * One line a request, written when its answer has gone: method and URL (documents and secrets censored
 * by the req serializer), status and time, the request's id, route and workspace. Fastify's own pair of
 * lines (one on arrival, one on answer) serialised, redacted and wrote twice what this one says.
 *
 * The line of an answered request goes through a child logger that does not redact: every field of it
 * is an id, a route template, a number or what the req serializer made (method, censored URL, host,
 * address), so no body, header or credential can be in it, and redaction (a copy and a walk of the
 * line per wildcard path) was two thirds of its cost. An errored request's line carries the error and
 * goes through the request's own, redacting, logger.
 */
export class OneLineRequestLog extends LogController {
  private access?: FastifyBaseLogger;

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
      return;
    }
    this.access ??= request.server.log.child({}, { redact: { paths: [] } });
    this.access.info(
      {
        reqId: request.id,
        route: request.routeOptions.url,
        workspace_id: request.caller?.workspaceId,
        req: request,
        res: reply,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

/**
 * A request's logger names its route from the start. It is a child of the root logger alone, and is
 * made again with every binding when one is added (logWorkspace): a child of a child cost 9 µs a
 * request, since pino makes each child the prototype of the next and V8 rebuilds the shape of an
 * object the first time it becomes a prototype.
 */
export function requestLog(app: App): void {
  app.addHook('onRoute', (route) => {
    const url = route.url;
    route.childLoggerFactory = (logger, bindings, options) =>
      logger.child({ ...bindings, route: url }, options);
  });
}

/** Names the request's workspace on every line it logs from here on. */
export function logWorkspace(request: FastifyRequest, reply: FastifyReply, workspaceId: string): void {
  const log: FastifyBaseLogger = request.server.log.child({
    reqId: request.id,
    route: request.routeOptions.url,
    workspace_id: workspaceId,
  });
  request.log = log;
  reply.log = log;
}
