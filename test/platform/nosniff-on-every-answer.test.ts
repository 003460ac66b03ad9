/**
 * The checkout fuzzer (seed 1191267222) showed that `/pay/./checkout` is normalised to `/pay/checkout`,
 * which no route matches, and the not-found answer carried no `X-Content-Type-Options: nosniff`.
 * Only the checkout and dashboard routes set it, so every unmatched path (and every API answer)
 * could be sniffed by a browser. Every answer of the service now carries it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('nosniff on every answer', () => {
  it.each([
    ['POST', '/pay/./checkout'],
    ['GET', '/pay/./payments/x'],
    ['GET', '/no-such-route'],
    ['GET', '/health'],
  ] as const)('%s %s', async (method, url) => {
    const res = await world.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
