import { answerNotFound } from '../client-errors.ts';
import { sendError } from '../http-errors.ts';
import type { App } from '../schema.ts';

/** A thrown error, and a URL no route matches, answer the {error, message} contract. */
export function errorHandlers(app: App): void {
  app.setErrorHandler((error, request, reply) => sendError(error as Error, request, reply));
  app.setNotFoundHandler(answerNotFound);
}
