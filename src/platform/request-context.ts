import type { FastifyRequest } from 'fastify';
import type { Caller, Deps } from './context.ts';
import { idempotencyKeyOf } from './idempotency.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** What every service is given beside its transaction and input: `(tx, ctx, input)`. */
export interface Ctx {
  deps: Deps;
  caller: Caller;
  requestId: string;
  ip: string;
  /** The request's Idempotency-Key, when one was sent. */
  idempotencyKey?: string;
}

/**
 * The context of a request that passed authentication (auth mode any, workspace or session). The
 * authentication hook sets the caller before any handler runs, so its absence is a wiring mistake.
 */
export function contextOf(deps: Deps, request: FastifyRequest): Ctx {
  if (!request.caller) throw new Error(`route ${request.routeOptions.url} has no authenticated caller`);
  return {
    deps,
    caller: request.caller,
    requestId: request.id,
    ip: request.ip,
    // API.md: only POST, PUT and PATCH take the header; elsewhere it is ignored, malformed or not.
    idempotencyKey: WRITE_METHODS.has(request.method) ? idempotencyKeyOf(request) : undefined,
  };
}

/** A context for work that no request started (a worker, a CLI command, a test). */
export function systemContext(deps: Deps, caller: Caller): Ctx {
  return { deps, caller, requestId: 'system', ip: '127.0.0.1' };
}
