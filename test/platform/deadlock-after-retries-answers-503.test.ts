/**
 * Under a soak's load (96 clients on 4 workspaces), `POST /simulate/payments/:id/pay` answered 500
 * internal_error five times. Its transaction met "deadlock detected" (40P01) with a group-commit batch
 * of the same workspace on every one of its retries, and a retryable error that outlived its retries
 * fell through to the unhandled case. Nothing had been written; the honest answer is 503 overloaded
 * with Retry-After, so a client retries with the same Idempotency-Key.
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError } from '../../src/platform/http-errors.ts';
import { startWorld, type World } from '../support/world.ts';

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

describe('over HTTP: a pay whose transaction keeps deadlocking', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('answers 503 overloaded with Retry-After, leaves no trace, and the same key then succeeds once', async () => {
    const ws = await world.workspace('Deadlocked');
    const charge = await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000' });
    expect(charge.statusCode).toBe(200);
    const id: string = charge.json().data.id;
    const before = await ws.balances();

    // Every attempt does its work, then meets a deadlock at the end, as against a concurrent batch.
    const real = world.db.transaction.bind(world.db);
    let deadlocking = true;
    world.db.transaction = ((fn, options) =>
      real(async (tx) => {
        const result = await fn(tx);
        if (deadlocking) throw pgError('40P01', 'deadlock detected');
        return result;
      }, options)) as typeof world.db.transaction;
    const headers = { 'idempotency-key': 'pay-deadlock-1' };
    const refused = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`, {}, headers);
    deadlocking = false;

    expect(refused.statusCode).toBe(503);
    expect(refused.json().error).toBe('overloaded');
    expect(refused.headers['retry-after']).toBe('1');
    expect((await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status).toBe('created');
    expect(await ws.balances()).toEqual(before);

    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`, {}, headers);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data.status).toBe('completed');
    const again = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`, {}, headers);
    expect(again.json().data).toEqual(paid.json().data);
    expect(BigInt((await ws.balances()).available!)).toBe(
      BigInt(before.available!) + 1000n - BigInt(charge.json().data.fee_minor),
    );
  });
});
