import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { closeBodySchema } from './body-schema.ts';
import type { ErrorCode } from './errors.ts';
import { byStatus, EXAMPLE_MESSAGE, routeErrors } from './route-errors.ts';
import { ErrorBody } from './schema.ts';

/** Schema key of a route whose JSON body may be left out (it is then read as {}). */
export const BODY_OPTIONAL = 'x-body-optional';

// Its bounds (1–255 printable characters) are checked by the idempotency layer on the decoded value.
const IdempotencyKeyHeader = Type.String({
  description:
    'Makes the write safe to retry: the same key and body replay the stored response (Idempotency-Replayed: true); another body is 409 idempotency_key_reuse.',
});
const SubaccountHeader = Type.String({
  format: 'uuid',
  description: 'Act on one of your own sub-accounts (workspace-level callers only).',
});

/**
 * Adds the request headers every route of a kind takes to its schema, so the document shows them:
 * Idempotency-Key on writes under /v1/{env}, X-Subaccount-Id where the route accepts it. Validation
 * of their values stays in the auth and idempotency layers, which run first.
 */
export function documentCommonHeaders(route: RouteOptions): void {
  if (!route.url.startsWith('/v1/:env/')) return;
  // Session-only routes say so: an API key there is 403 forbidden.
  if ((route.config as { auth?: string } | undefined)?.auth === 'session' && !route.schema?.security) {
    route.schema = {
      ...route.schema,
      security: [
        { session: [], workspace: [] },
        { sessionCookie: [], workspace: [] },
      ],
    };
  }
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const headers: Record<string, ReturnType<typeof Type.Optional>> = {};
  if (methods.some((method) => ['POST', 'PUT', 'PATCH'].includes(method))) {
    headers['idempotency-key'] = Type.Optional(IdempotencyKeyHeader);
  }
  if ((route.config as { subaccount?: boolean } | undefined)?.subaccount) {
    headers['x-subaccount-id'] = Type.Optional(SubaccountHeader);
  }
  if (Object.keys(headers).length === 0) return;
  // A route's own headers (X-OTP-Code on crypto send) stay beside the common ones.
  const own = (route.schema?.headers as { properties?: Record<string, ReturnType<typeof Type.Optional>> })
    ?.properties;
  route.schema = { ...route.schema, headers: Type.Object({ ...own, ...headers }) };
}

interface RequestBody {
  required?: boolean;
  content?: Record<string, { schema?: unknown }>;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, { requestBody?: RequestBody; [key: string]: unknown }>>;
}

/**
 * The document's request bodies as the API takes them: operations marked 'x-body-optional' do not
 * require one, and every body is closed as its validator closes it (closeBodySchema), so clients
 * generated from the document (the SDK) know an unknown field is refused.
 */
export function markOptionalBodies(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const body = operation?.requestBody;
      if (!body) continue;
      for (const media of Object.values(body.content ?? {})) {
        if (media.schema) media.schema = closeBodySchema(media.schema);
      }
      if (operation[BODY_OPTIONAL]) {
        body.required = false;
        delete operation[BODY_OPTIONAL];
      }
    }
  }
  return document;
}

/** The error body as the document shows it for a status: its `error` one of the route's codes there. */
function errorResponse(codes: readonly ErrorCode[]): Record<string, unknown> {
  const examples = Object.fromEntries(
    codes.map((code) => [code, { summary: code, value: { error: code, message: EXAMPLE_MESSAGE[code] } }]),
  );
  return {
    ...ErrorBody,
    properties: {
      ...ErrorBody.properties,
      error: {
        type: 'string',
        enum: [...codes],
        description: 'The error code: branch on it, never on the message.',
      },
    },
    description: `${codes.map((code) => `\`${code}\``).join(', ')} (see the errors guide, /docs/guides/errors)`,
    'x-examples': examples,
  };
}

/**
 * The route's schema as the document shows it (swagger's `transform`): a route that declares its
 * error list (config.errors) answers one documented response per status, listing the codes and an
 * example of each, instead of the generic 4XX and 5XX. The route's own schema is left as it is: it
 * still serializes the answers.
 */
export function documentRoute(schema: Record<string, unknown> | undefined, route: RouteOptions) {
  const codes = routeErrors({
    method: String(route.method),
    url: route.url,
    config: route.config ?? {},
    schema,
  });
  if (!schema?.response || !codes) return schema;
  const { '4xx': _client, '5xx': _server, ...success } = schema.response as Record<string, unknown>;
  const errors = Object.fromEntries(
    [...byStatus(codes)].map(([status, group]) => [String(status), errorResponse(group)]),
  );
  // A status the route documents itself (an HTML error page) keeps its own description.
  return { ...schema, response: { ...errors, ...success } };
}
