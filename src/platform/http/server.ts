import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { answerClientError, answerFrameworkError } from '../client-errors.ts';
import type { Deps } from '../context.ts';
import { LOG_REDACT_PATHS, prettyTransport, redactUrl } from '../logging.ts';
import type { App } from '../schema.ts';
import { serverTimeouts } from '../server-options.ts';
import { OneLineRequestLog, requestLog } from './request-log.ts';

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export interface ServerOptions {
  logger?: FastifyServerOptions['logger'];
  /** Where JSON log lines go (stdout by default); tests read them from here. */
  logStream?: DestinationStream;
}

/** The Fastify instance: its logger, request ids, limits, timeouts, proxies and pre-routing errors. */
export function createServer(deps: Deps, options: ServerOptions): App {
  const app = Fastify({
    logger: options.logger ?? {
      level: deps.config.logLevel,
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        // Fastify's own request line, with query values that may hold a document censored.
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          hostname: request.hostname,
          remoteAddress: request.ip,
        }),
      },
      ...(options.logStream
        ? { stream: options.logStream }
        : { transport: prettyTransport(deps.config.production) }),
    },
    // One line a request, at its answer, instead of Fastify's two.
    logController: new OneLineRequestLog(),
    bodyLimit: 1024 * 1024,
    ...serverTimeouts(deps.config),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Only the proxies named in TRUST_PROXY may say who the client is (X-Forwarded-For: request.ip,
    // which limits and throttles count by) and over what it came (X-Forwarded-Proto: Secure cookies).
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    // Errors before routing (the HTTP parser's, a broken URL) answer the same error contract.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();
  requestLog(app); // before any route: each route's requests log under its name
  rootRedirect(app);
  return app;
}

/**
 * GET /, where a browser pointed at the server lands, goes on to the dashboard (302: the root is no
 * resource of the API, and the dashboard links to the reference at /docs).
 */
function rootRedirect(app: App): void {
  app.get(
    '/',
    { schema: { hide: true, description: 'Redirects to the dashboard (/dashboard).' } },
    async (_request, reply) => reply.redirect('/dashboard', 302),
  );
}
