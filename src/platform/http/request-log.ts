import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import type { App } from '../schema.ts';

/**
 * One line a request, written when its answer has gone: method and URL (query values that may hold a
 * document or a secret censored by the req serializer), status and time, the request's id, route and
 * workspace. Fastify's own pair of lines (one on arrival, one on answer) serialised, redacted and
 * wrote twice what this one says. The arrival is logged at debug, for an operator chasing a request
 * that never ends; a request whose client went away first is logged when it does (requestLog), and
 * one refused before routing by its handler (client-errors.ts).
 *
 * The line of an answered request goes through a child logger that does not redact: every field of it
 * is an id, a route template, a number or what the req serializer made (method, censored URL, host,
 * address), so no body, header or credential can be in it, and redaction (a copy and a walk of the
 * line per wildcard path) was two thirds of its cost. An errored request's line carries the error and
 * goes through the request's own, redacting, logger.
 */
export class OneLineRequestLog extends LogController {
  private access?: FastifyBaseLogger;

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

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
      { ...bindingsOf(request), req: request, res: reply, responseTime: reply.elapsedTime },
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
      childNaming(logger, { ...bindings, route: url }, options);
  });
  // A request whose connection closed before its answer was sent never reaches requestCompleted:
  // its client went away (or timed out) while it was read or handled. Its line is written then.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => {
      if (!reply.sent) {
        request.log.info({ req: request, responseTime: reply.elapsedTime }, 'request aborted');
      }
    });
    done();
  });
}

/** What names a request on its lines: its id, its route and, once authenticated, its workspace. */
function bindingsOf(request: FastifyRequest) {
  return { reqId: request.id, route: request.routeOptions.url, workspace_id: request.caller?.workspaceId };
}

/**
 * Names the authenticated caller's workspace on every line the request logs from here on. A route's
 * own log level or serializers would be lost here (the child is the root's): no route sets any.
 */
export function logWorkspace(request: FastifyRequest, reply: FastifyReply): void {
  const log = childNaming(request.server.log, bindingsOf(request));
  request.log = log;
  reply.log = log;
}

type Bindings = Record<string, string | undefined>;
const { chindingsSym } = pino.symbols;

/**
 * A child of `logger` whose lines carry `bindings`: ids and route templates, never anything a
 * caller sent but its request id (printable ASCII, checked). pino would run each binding through the
 * redaction of every wildcard path, which walks a string character by character and parsed every
 * path again (3 bindings, 11 paths: 14 KB and a fifth of a request's logging); these are written as
 * JSON strings behind the parent's own. A logger that is not pino's (logging off) binds as it does.
 */
function childNaming(logger: FastifyBaseLogger, bindings: Bindings, options?: object): FastifyBaseLogger {
  const parent = logger as FastifyBaseLogger & { [chindingsSym]?: string };
  const inherited = parent[chindingsSym];
  const plain = Object.values(bindings).every((value) => value === undefined || typeof value === 'string');
  if (typeof inherited !== 'string' || !plain) return logger.child(bindings, options);
  const child = logger.child({}, options) as FastifyBaseLogger & { [chindingsSym]: string };
  let chindings = inherited;
  for (const key in bindings) {
    const value = bindings[key];
    if (value !== undefined) chindings += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  child[chindingsSym] = chindings;
  return child;
}
