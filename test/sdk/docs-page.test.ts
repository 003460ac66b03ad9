import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { guideFiles } from './snippets.ts';

const world = await startWorld();
afterAll(() => world.close());

it('/docs/guides lists every guide, quick start first, and serves each one', async () => {
  const index = await world.app.inject({ method: 'GET', url: '/docs/guides' });
  expect(index.statusCode).toBe(200);
  expect(index.headers['content-type']).toContain('text/html');
  const linked = [...index.body.matchAll(/href="\/docs\/guides\/([a-z-]+)"/g)].map((m) => m[1]);
  expect(linked[0]).toBe('quickstart');
  expect([...linked].sort()).toEqual(guideFiles().map((file) => file.replace(/\.md$/, '')));

  const guide = await world.app.inject({ method: 'GET', url: '/docs/guides/webhooks.md' });
  expect(guide.statusCode).toBe(200);
  expect(guide.body).toContain('# Webhooks');
  expect((await world.app.inject({ method: 'GET', url: '/docs/guides/nothing' })).statusCode).toBe(404);
  expect((await world.app.inject({ method: 'GET', url: '/docs/guides/..%2Fpackage.json' })).statusCode).toBe(
    400,
  );
});

it('the API reference points to the guides and the SDK', async () => {
  const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(document.info.description).toContain('/docs/guides');
  expect(document.info.description).toContain('@lastro/sdk');
});
