import type { ErrorCode } from '../errors.ts';
import { routeErrors } from '../route-errors.ts';
import type { App } from '../schema.ts';

/** Set by the test support (test/support/app.ts): the check costs a JSON parse of every error answer. */
export const CHECK_DECLARED_ERRORS_ENV = 'LASTRO_CHECK_DECLARED_ERRORS';

/** The code of an error answer, or undefined when the payload is not the error contract. */
function codeOf(payload: unknown): string | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const body = JSON.parse(payload) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * In tests, records each error code a route answers that its declared list (config.errors merged with
 * the common ones) does not hold, in app.undeclaredErrors; the test support fails the suite on any.
 * A route that declares no list is not checked here: the route-catalogue test reports it.
 */
export function declaredErrorsCheck(app: App): void {
  const found: string[] = [];
  app.decorate('undeclaredErrors', found);
  if (process.env[CHECK_DECLARED_ERRORS_ENV] !== '1') return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400) return payload;
    const options = request.routeOptions;
    if (!options.url) return payload;
    const declared = routeErrors({
      method: request.method,
      url: options.url,
      config: options.config as never,
      schema: options.schema as never,
    });
    const code = codeOf(payload);
    if (!declared || !code || declared.includes(code as ErrorCode)) return payload;
    const entry = `${request.method} ${options.url} answered ${reply.statusCode} ${code}, not in its error list (config.errors)`;
    if (!found.includes(entry)) found.push(entry);
    return payload;
  });
}
