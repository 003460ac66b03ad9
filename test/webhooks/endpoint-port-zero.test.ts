/** A webhook URL on port 0 can never be reached: it is refused when the endpoint is created or moved. */
import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a webhook endpoint on port 0 is refused with 400 naming the url', async () => {
  const ws = await world.workspace('Porta Zero');
  for (const url of ['https://example.com:0/hooks', 'http://example.com:00/hooks']) {
    const res = await ws.api.post('/v1/sandbox/webhooks/endpoints', { url });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
    expect(res.json().message).toMatch(/port 0/);
  }
  const listed = await ws.api.get('/v1/sandbox/webhooks/endpoints');
  expect(listed.json().data).toEqual([]);
  const fine = await ws.api.post('/v1/sandbox/webhooks/endpoints', { url: 'https://example.com:8443/hooks' });
  expect(fine.statusCode, fine.body).toBe(200);
});
