import { AppError } from '../errors.ts';
import { isHostedPagePath, secureHostedAnswer } from '../hosted-page/public-route.ts';
import { sendError } from '../http-errors.ts';
import type { App } from '../schema.ts';

/** A thrown error, and a URL no route matches, answer the {error, message} contract. */
export function errorHandlers(app: App): void {
  app.setErrorHandler((error, request, reply) => sendError(error as Error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A /pay/… address no route takes (a token longer than the router's parameters, a segment more)
    // is answered outside the pages' own hooks: it carries their headers all the same.
    if (isHostedPagePath(path)) secureHostedAnswer(reply);
    return sendError(new AppError('not_found', `No route ${request.method} ${path}.`), request, reply);
  });
}
