import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a guide is an HTML page linking the other guides; its Markdown is at .md', async () => {
  const page = await world.app.inject({ method: 'GET', url: '/docs/guides/pix' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.body).toContain('<h1 id="pix-cash-in-and-payouts">');
  expect(page.body).toContain('<a href="/docs/guides/webhooks">webhooks</a>');
  expect(page.body).toContain('<a href="/docs/guides/pix.md">Markdown source</a>');

  const source = await world.app.inject({ method: 'GET', url: '/docs/guides/pix.md' });
  expect(source.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(source.body).toMatch(/^# PIX/);
});
