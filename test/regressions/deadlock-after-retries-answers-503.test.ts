/**
 * Soak of 2026-11-24 (96 clients on 4 workspaces): `POST /simulate/payments/:id/pay` answered 500
 * internal_error five times. Its transaction met "deadlock detected" (40P01) with a group-commit batch
 * of the same workspace on every one of its retries, and a retryable error that outlived its retries
 * fell through to the unhandled case. Nothing had been written; the honest answer is 503 overloaded
 * with Retry-After, so a client retries with the same Idempotency-Key.
 */
import type { FastifyRequest } from 'fastify';
import { expect, it } from 'vitest';
import { toAppError } from '../../src/platform/http-errors.ts';

const request = { log: { warn: () => {}, error: () => {} } } as unknown as FastifyRequest;

function pgError(code: string, message: string) {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

it.each([
  ['40P01', 'deadlock detected'],
  ['40001', 'could not serialize access due to concurrent update'],
])('a %s that outlived its retries answers 503 overloaded with Retry-After', (code, message) => {
  const answer = toAppError(pgError(code, message), request);
  expect(answer.status).toBe(503);
  expect(answer.code).toBe('overloaded');
  expect(answer.headers).toEqual({ 'retry-after': '1' });
  expect(answer.message).not.toMatch(/deadlock|serialize|40P01|40001/);
});

it('any other database error is still an internal error (the mapping is not a catch-all)', () => {
  const answer = toAppError(pgError('42P01', 'relation "x" does not exist'), request);
  expect(answer.status).toBe(500);
  expect(answer.code).toBe('internal_error');
});
