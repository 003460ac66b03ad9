import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { authHeaders, signupOwner, startWorld } from '../support/world.ts';

const world = await startWorld({}, (app) => {
  app.get('/v1/:env/__boom', { config: { auth: 'none' }, schema: { hide: true } }, async () => {
    throw new Error('SELECT secret FROM users WHERE password = lastro_test_sk_leak');
  });
});
afterAll(() => world.close());

describe('error shape', () => {
  it('unknown routes are 404 in the {error, message} shape with a request id', async () => {
    const res = await world.app.inject({ method: 'GET', url: '/v1/sandbox/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('a path segment longer than the router takes for a parameter is 404 not_found, not 400', async () => {
    const res = await world.app.inject({ method: 'GET', url: `/v1/sandbox/payments/${'a'.repeat(101)}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'not_found',
      message: 'No route GET /v1/sandbox/payments/' + 'a'.repeat(101) + '.',
    });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('X-Request-Id is taken from the request when given', async () => {
    const res = await world.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'req-abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('req-abc-123');
  });

  it('malformed JSON is 400 invalid_request with details', async () => {
    const res = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', details: [{ field: 'body' }] });
  });

  it('a body over 1 MiB is 413 payload_too_large', async () => {
    const res = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024), workspace_name: 'X' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('payload_too_large');
  });

  it('wrong types are 400 (no coercion of a number into a string)', async () => {
    const owner = await signupOwner(world.app);
    const res = await world.app.inject({
      method: 'POST',
      url: '/v1/sandbox/api-keys',
      headers: authHeaders(owner.sessionToken, owner.workspaceId),
      payload: { name: 42 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', details: [{ field: 'body.name' }] });
  });

  it('out-of-bounds limit is 400, not clamped', async () => {
    const owner = await signupOwner(world.app);
    for (const limit of ['0', '101', 'abc']) {
      const res = await world.app.inject({
        method: 'GET',
        url: `/v1/sandbox/audit-events?limit=${limit}`,
        headers: authHeaders(owner.sessionToken, owner.workspaceId),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('a 500 never carries the cause: no stack, no SQL, no secret', async () => {
    const res = await world.app.inject({ method: 'GET', url: '/v1/sandbox/__boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: 'internal_error',
      message: expect.stringContaining(res.headers['x-request-id'] as string),
    });
    expect(res.body).not.toMatch(/SELECT|lastro_test_sk|at .*\.ts/);
  });
});

describe.each([
  ['in memory', undefined],
  ['in Redis', 'redis://127.0.0.1:6379'],
])('rate limits %s', (_where, redisUrl) => {
  it('429 rate_limited with Retry-After once a credential passes its allowance', async () => {
    if (redisUrl) {
      // Counters in Redis outlive the app (that is their point): clear this machine's anonymous
      // counter so signups of an earlier run in the same window do not count here.
      const redis = new Redis(redisUrl);
      await redis.del('lastro-rl:ip:127.0.0.1');
      await redis.quit();
    }
    const limited = await startWorld({ rateLimitMax: 3, redisUrl });
    try {
      const owner = await signupOwner(limited.app);
      const headers = authHeaders(owner.sessionToken, owner.workspaceId);
      const codes: number[] = [];
      let last: Awaited<ReturnType<typeof limited.app.inject>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await limited.app.inject({ method: 'GET', url: '/v1/sandbox/workspace', headers });
        codes.push(last.statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 429]);
      expect(last!.json().error).toBe('rate_limited');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      // Another credential has its own allowance.
      const other = await signupOwner(limited.app);
      const res = await limited.app.inject({
        method: 'GET',
        url: '/v1/sandbox/workspace',
        headers: authHeaders(other.sessionToken, other.workspaceId),
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
