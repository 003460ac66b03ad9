/**
 * A search by document must never reach the log in clear, however the query names its parameter:
 * the server decodes `%73earch` to `search` and filters by it, so the log must censor it too.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/platform/schema.ts';
import { authHeaders, createApiKey, signupOwner, startWorld, type World } from '../support/world.ts';

const DOCUMENT = '39053344705';
const lines: string[] = [];
let world: World;
let app: App;

beforeAll(async () => {
  world = await startWorld();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp(
    { ...world.deps, config: { ...world.deps.config, logLevel: 'info' } },
    { logStream: stream },
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await world.close();
});

it('a percent-encoded search parameter filters by the document and is still censored in the log', async () => {
  const owner = await signupOwner(app);
  const key = await createApiKey(app, owner);
  const headers = authHeaders(key.secret, owner.workspaceId);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/sandbox/customers',
    headers,
    payload: { kind: 'person', display_name: 'Ana Lima', document_number: DOCUMENT },
  });
  expect(created.statusCode, created.body).toBe(200);

  const urls = [
    `/v1/sandbox/customers?%73earch=${DOCUMENT}`,
    `/v1/sandbox/customers?limit=5&searc%68=${DOCUMENT}`,
    `/v1/sandbox/customers?%53EARCH=x&%73earch=${DOCUMENT}`,
    `/v1/sandbox/payment-links/payments?%73earch=${DOCUMENT}`,
  ];
  for (const url of urls) {
    const res = await app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
  }
  // The encoded name is the real parameter: it found the customer by the document.
  const found = await app.inject({ method: 'GET', url: urls[0]!, headers });
  expect(found.json().data.map((c: { display_name: string }) => c.display_name)).toEqual(['Ana Lima']);

  const logged = lines.join('\n');
  expect(logged).toContain('searc%68=[redacted]');
  expect(logged).toContain('/v1/sandbox/payment-links/payments?%73earch=[redacted]');
  expect(logged).not.toContain(DOCUMENT);
});
