import { checkPartyScope } from '../auth/party-scope.ts';
import { refuseHostileJson } from '../json-guard.ts';
import { BODY_OPTIONAL } from '../openapi.ts';
import type { App } from '../schema.ts';
import { refuseUnexpectedBody } from '../unexpected-body.ts';

/**
 * JSON is the only body the API reads: without this Fastify's default text/plain parser hands a
 * string to routes that take no body (logout, 2FA setup), and a schema error to the others.
 */
export function jsonBodiesOnly(app: App): void {
  app.removeContentTypeParser('text/plain');
}

/** What a body must be before any schema, handler or the database sees it. */
export function bodyGuards(app: App): void {
  // One hook, not an async one per check: each would cost a promise and a turn of the microtask queue.
  app.addHook('preValidation', (request, _reply, done) => {
    // A route whose body is optional (schema 'x-body-optional') gets {} when none is sent.
    const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
    if (schema?.[BODY_OPTIONAL] && (request.body === undefined || request.body === null)) request.body = {};
    checkPartyScope(request);
    // Lone surrogates and deep nesting: 400 before any schema, handler or the database sees them.
    refuseHostileJson(request);
    refuseUnexpectedBody(request);
    done();
  });
}
