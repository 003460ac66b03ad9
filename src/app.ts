import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import { MODULES } from './modules/index.ts';
import { authenticate, requireSessionUser } from './platform/auth/authenticate.ts';
import { LoginThrottle, memoryFailureStore, redisFailureStore } from './platform/auth/login-throttle.ts';
import { checkPartyScope } from './platform/auth/party-scope.ts';
import { compileBodyValidator, JSON_BOUND_KEYWORDS } from './platform/body-schema.ts';
import { answerClientError, answerFrameworkError } from './platform/client-errors.ts';
import type { Deps, RouteEntry } from './platform/context.ts';
import { AppError, ERROR_STATUS } from './platform/errors.ts';
import { sendError } from './platform/http-errors.ts';
import { httpMetrics } from './platform/http-metrics.ts';
import { refuseHostileJson } from './platform/json-guard.ts';
import { LOG_REDACT_PATHS, prettyTransport, redactUrl } from './platform/logging.ts';
import {
  BODY_OPTIONAL,
  documentCommonHeaders,
  markOptionalBodies,
  type OpenApiDocument,
} from './platform/openapi.ts';
import { rateLimitKey } from './platform/rate-limit-key.ts';
import type { App } from './platform/schema.ts';
import { serverTimeouts } from './platform/server-options.ts';
import { refuseUnexpectedBody } from './platform/unexpected-body.ts';
import { writePath } from './platform/write-path.ts';

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    allErrors: false,
    strict: false,
    removeAdditional: false,
  });
  addFormats.default(ajv);
  for (const keyword of JSON_BOUND_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Where JSON log lines go (stdout by default); tests read them from here. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the HTTP app. It does not listen: main.ts does, tests use inject(). */
export async function buildApp(deps: Deps, options: BuildOptions = {}): Promise<App> {
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

  // Bodies are validated strictly (a number is not a string); query strings and params are text, so they coerce.
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  // A body refuses fields its schema does not list (closed here, once, for every route).
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileBodyValidator(bodyAjv, schema) : textAjv.compile(schema as object),
  );

  httpMetrics(app);
  app.decorateRequest('caller', null);
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('idempotencyReplayed', false);
  app.decorateRequest('usedWrite', false);
  app.decorateRequest('write', writePath(deps));

  app.setErrorHandler((error, request, reply) => sendError(error as Error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
      request,
      reply,
    ),
  );

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // No answer (JSON, HTML page, not-found) may be sniffed into another type by a browser.
    reply.header('x-content-type-options', 'nosniff');
    if (request.routeOptions.url) {
      request.log = request.log.child({ route: request.routeOptions.url });
      reply.log = request.log;
    }
  });

  // JSON is the only body the API reads: without this Fastify's default text/plain parser hands a
  // string to routes that take no body (logout, 2FA setup), and a schema error to the others.
  app.removeContentTypeParser('text/plain');

  await app.register(cookie);
  // With REDIS_URL the counters are shared by every API process; otherwise each process counts in memory.
  const redis = deps.config.redisUrl
    ? new Redis(deps.config.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  app.decorate(
    'loginThrottle',
    new LoginThrottle(
      redis ? redisFailureStore(redis) : memoryFailureStore(() => deps.clock.now().getTime()),
    ),
  );
  // Not per route (the plugin's default adds its hook after the app's hooks, so after authentication):
  // one app-level hook below, registered before authentication, so every request is counted first.
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'lastro-rl:', skipOnError: true } : {}),
    max: deps.config.rateLimitMax,
    timeWindow: deps.config.rateLimitWindowMs,
    // Per credential: one tenant's burst cannot eat another's allowance behind the same IP.
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s.`,
        undefined,
        {
          'retry-after': String(Math.ceil(context.ttl / 1000)),
        },
      ),
  });

  // Routes with an allowance of their own (the public checkout pages) are limited by it instead.
  const generalLimit = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.rateLimit === undefined) await generalLimit.call(app, request, reply);
  });
  // A request that fails authentication also spends its address's allowance, so invented tokens
  // (each its own credential key) cannot buy fresh allowances.
  const failedAuthLimit = app.createRateLimit({ keyGenerator: (request) => `auth-failed:${request.ip}` });
  const chargeFailedAuth = async (request: FastifyRequest, error: unknown) => {
    if (!(error instanceof AppError) || ERROR_STATUS[error.code] !== 401) return;
    const verdict = await failedAuthLimit(request);
    if (!verdict.isAllowed && verdict.isExceeded) {
      const seconds = String(verdict.ttlInSeconds);
      throw new AppError(
        'rate_limited',
        `Too many failed authentications; retry in ${seconds} s.`,
        undefined,
        {
          'retry-after': seconds,
        },
      );
    }
  };

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
    request.log = request.log.child({ workspace_id: request.caller.workspaceId });
    reply.log = request.log;
  });

  // A route whose body is optional (schema 'x-body-optional') gets {} when none is sent.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
    if (schema?.[BODY_OPTIONAL] && (request.body === undefined || request.body === null)) request.body = {};
    checkPartyScope(request);
  });

  // Lone surrogates and deep nesting: 400 before any schema, handler or the database sees them.
  app.addHook('preValidation', refuseHostileJson);
  app.addHook('preValidation', refuseUnexpectedBody);

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.idempotencyReplayed) reply.header('idempotency-replayed', 'true');
    return payload;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lastro API',
        version: '1.0.0',
        description:
          'PIX and stablecoin payments on one double-entry ledger. Every /v1/{env} call carries Authorization: Bearer <key or session> and X-Workspace-Id. Guides (quick start, authentication, idempotency, PIX, crypto, RFQ, payment links, webhooks, sandbox, errors, going live): [/docs/guides](/docs/guides). Typed TypeScript client: @lastro/sdk (packages/sdk).',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'lastro_test_sk_…, lastro_live_sk_… or lastro_sess_…',
          },
          workspace: { type: 'apiKey', in: 'header', name: 'X-Workspace-Id' },
          session: { type: 'http', scheme: 'bearer', description: 'a dashboard session: lastro_sess_…' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lastro_session' },
        },
      },
      security: [{ bearer: [], workspace: [] }],
    },
    transformObject: (document) =>
      markOptionalBodies((document as unknown as { openapiObject: OpenApiDocument }).openapiObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const catalog: RouteEntry[] = [];
  app.decorate('routeCatalog', catalog);
  app.addHook('onRoute', (route) => {
    documentCommonHeaders(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      catalog.push({
        method,
        url: route.url,
        config: route.config ?? {},
        schema: (route.schema ?? {}) as RouteEntry['schema'],
      });
    }
  });
  for (const module of MODULES) for (const register of module.routes) register(app, deps);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
