/**
 * fetchWithRetry once sent a write again after a network failure or a 503 whatever
 * the write, but only writes under /v1/{env} carry an Idempotency-Key. A lost answer to
 * POST /v1/auth/2fa/enable (or login, 2fa/setup) was sent again unkeyed: done twice, or refused the
 * second time although the first one worked. An unkeyed write is sent once (a 429 is still retried:
 * the server refused it before doing anything).
 */
import { expect, it } from 'vitest';
import { Lastro, LastroConnectionError, ServerError } from '../../packages/sdk/src/index.ts';

function client(answer: (call: number) => Response | Promise<Response>) {
  const sent: Request[] = [];
  const lastro = new Lastro({
    apiKey: 'lastro_sess_x',
    workspaceId: 'ws',
    retry: { baseDelayMs: 1, maxDelayMs: 1 },
    fetch: async (request) => {
      sent.push(request);
      return answer(sent.length);
    },
  });
  return { lastro, sent };
}

const body = { code: '123456' };

it('an unkeyed write whose answer was lost is not sent again', async () => {
  const { lastro, sent } = client((call) => {
    if (call === 1) throw new TypeError('fetch failed: socket hang up');
    return Response.json(
      { error: 'invalid_request', message: 'two-factor is already enabled' },
      { status: 400 },
    );
  });
  await expect(lastro.post('/v1/auth/2fa/enable', { body } as never)).rejects.toBeInstanceOf(
    LastroConnectionError,
  );
  expect(sent).toHaveLength(1);
});

it('an unkeyed write answered 503 is not sent again; a 429 is', async () => {
  const unavailable = client(() =>
    Response.json({ error: 'database_unavailable', message: 'later' }, { status: 503 }),
  );
  await expect(unavailable.lastro.post('/v1/auth/2fa/enable', { body } as never)).rejects.toBeInstanceOf(
    ServerError,
  );
  expect(unavailable.sent).toHaveLength(1);

  const limited = client((call) =>
    call === 1
      ? Response.json(
          { error: 'rate_limited', message: 'slow down' },
          { status: 429, headers: { 'retry-after': '0' } },
        )
      : Response.json({ data: { enabled: true } }),
  );
  await limited.lastro.post('/v1/auth/2fa/enable', { body } as never);
  expect(limited.sent).toHaveLength(2);
});

it('a keyed write is still retried with its key', async () => {
  const { lastro, sent } = client((call) =>
    call === 1
      ? Response.json({ error: 'provider_unavailable', message: 'later' }, { status: 503 })
      : Response.json({ data: { id: 'p' } }),
  );
  await lastro.post('/v1/{env}/pix/charges', { body: { amount_minor: '100', currency: 'BRL' } });
  expect(sent).toHaveLength(2);
  expect(sent[1]!.headers.get('idempotency-key')).toBe(sent[0]!.headers.get('idempotency-key'));
});
