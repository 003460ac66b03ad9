import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { isHostedPagePath, secureHostedAnswer } from './hosted-page/public-route.ts';
import { sendError } from './http-errors.ts';

/** How long a refused connection may still send (its answer then reaches it whole) before it is cut. */
const LINGER_MS = 1000;

function appErrorOf(code: string | undefined): AppError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'The request headers are larger than 16 KB.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request did not arrive whole in time; send it again.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'The chunk extensions are too large.');
    default:
      return new AppError('invalid_request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * Fastify's clientErrorHandler: errors of Node's HTTP parser (a header over 16 KB, a malformed
 * header or request line, a request that did not arrive in time) never reach a route or the error
 * handler, so the answer is written here, in the same contract as every other error: the
 * {error, message} body with a documented code, X-Request-Id (a fresh one: there is no request),
 * and Connection: close.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  // Already answered (or answering): a second response would corrupt the stream.
  if (!socket.writable || socket.writableEnded || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const appError = appErrorOf(error.code);
  const requestId = randomUUID();
  const body = JSON.stringify(appError.toBody());
  this.log.info({ requestId, code: error.code, error: appError.code }, 'client error');
  // end(), not destroy(): closing with the client's unread bytes pending would reset the connection
  // and lose the answer. The socket is let go once the client closes, or after LINGER_MS.
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * A URL no route takes: 404 not_found. A /pay/… address (a token longer than the router takes for a
 * parameter, a segment more) is answered outside the pages' own hooks: it carries their headers all
 * the same.
 */
export function answerNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0]!;
  if (isHostedPagePath(path)) secureHostedAnswer(reply);
  return sendError(new AppError('not_found', `No route ${request.method} ${path}.`), request, reply);
}

/**
 * Fastify's frameworkErrors: a path with broken percent-encoding (400), or a path segment longer than
 * the router takes for a parameter, which no route can take (404, as any other unknown address).
 * The usual error path, request id included. Fastify answers these before any hook runs, so they are
 * not counted by the rate limit or the HTTP metrics: they touch nothing but this function.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  // Runs before the onRequest hooks, which set it on every other answer.
  reply.header('x-content-type-options', 'nosniff');
  // No route and no onResponse: this is the request's one log line.
  request.log.info({ req: request, code: error.code }, 'request refused before routing');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return answerNotFound(request, reply);
  return sendError(error, request, reply);
}
