/**
 * The PSP calls POST /v1/psp/pix/notifications?hmac=<PIX_WEBHOOK_SECRET>: the request log line
 * carried the URL as is, so anyone reading the logs could forge PSP notifications.
 */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { startWorld } from '../support/world.ts';

const SECRET = 'S3cretS3cretS3cretS3cret42';

it('the webhook secret in ?hmac= never reaches the logs, matching or not', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const world = await startWorld();
  const bcb = {
    baseUrl: 'https://psp.invalid/v2',
    tokenUrl: 'https://psp.invalid/oauth/token',
    payoutBaseUrl: 'https://psp.invalid',
    clientId: 'id',
    clientSecret: 'secret',
    certFile: '/dev/null',
    keyFile: '/dev/null',
    caFile: undefined,
    pixKey: 'key@example.com',
    webhookUrl: 'https://lastro.example/v1/psp/pix/notifications',
    webhookSecret: SECRET,
    timeoutMs: 1000,
  };
  const app = await buildApp(
    { ...world.deps, config: { ...world.deps.config, logLevel: 'info', pix: { provider: 'bcb', bcb } } },
    { logStream: stream },
  );
  await app.ready();
  try {
    for (const hmac of [SECRET, `${SECRET}x`]) {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/psp/pix/notifications/pix?hmac=${hmac}&ignorar=`,
        payload: { nothing: true },
      });
      // The matching secret passes authentication (no live PSP here to ask: 503), the other is refused.
      expect(res.statusCode).toBe(hmac === SECRET ? 503 : 401);
    }
    expect(lines.join('')).toContain('/v1/psp/pix/notifications/pix');
    expect(lines.join('')).not.toContain(SECRET);
  } finally {
    await app.close();
    await world.close();
  }
});
