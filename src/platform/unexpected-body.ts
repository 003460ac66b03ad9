import type { FastifyRequest } from 'fastify';
import { MAX_UNKNOWN_FIELDS } from './body-schema.ts';
import { invalidRequest } from './errors.ts';

/**
 * A route that declares no body takes none: a body sent to it is refused rather than ignored, for the
 * same reason unknown fields are (a caller who sends `amount_minor` to a pay helper must not believe
 * it was read). An empty object or no body at all is accepted: many clients send `{}` on a POST.
 */
export function refuseUnexpectedBody(request: FastifyRequest): void {
  if (request.routeOptions.schema?.body) return;
  const body: unknown = request.body;
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body)) {
    const fields = Object.keys(body);
    if (fields.length === 0) return;
    throw invalidRequest(
      'This route takes no body.',
      fields
        .slice(0, MAX_UNKNOWN_FIELDS)
        .map((field) => ({ field: `body.${field}`, issue: 'unknown field' })),
    );
  }
  throw invalidRequest('This route takes no body.', [{ field: 'body', issue: 'must be empty' }]);
}
