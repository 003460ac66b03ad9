import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a Portuguese guide is a page in pt-BR linking its English guide; its Markdown is at .md', async () => {
  const page = await world.app.inject({ method: 'GET', url: '/docs/guides/pt-BR/pix' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.body).toContain('<html lang="pt-BR">');
  expect(page.body).toContain('<h1 id="pix-recebimentos-cash-in-e-pagamentos-payouts">Pix: recebimentos');
  expect(page.body).toContain('<h2 id="devoluções">Devoluções</h2>');
  expect(page.body).toContain('<a href="/docs/guides/pix" hreflang="en">In English</a>');
  expect(page.body).toContain('In English: <a href="/docs/guides/pix">PIX: cash-in and payouts</a>');
  // A link to another guide stays in Portuguese.
  expect(page.body).toContain('<a href="/docs/guides/pt-BR/sandbox">sandbox</a>');

  const source = await world.app.inject({ method: 'GET', url: '/docs/guides/pt-BR/pix.md' });
  expect(source.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(source.body).toMatch(/^# Pix: recebimentos/);
});

it('the English guide links its translation, and the index lists both languages', async () => {
  const english = await world.app.inject({ method: 'GET', url: '/docs/guides/pix' });
  expect(english.body).toContain('<a href="/docs/guides/pt-BR/pix" hreflang="pt-BR">Em português</a>');
  expect(english.body).toContain(
    'Em português: <a href="/docs/guides/pt-BR/pix">Pix: recebimentos (cash-in) e pagamentos (payouts)</a>',
  );

  const index = await world.app.inject({ method: 'GET', url: '/docs/guides' });
  expect(index.body).toContain('<h2 lang="pt-BR">Guias do Lastro</h2>');
  expect(index.body).toContain(
    '<a href="/docs/guides/pt-BR/pix">Pix: recebimentos (cash-in) e pagamentos (payouts)</a>',
  );

  const portugueseIndex = await world.app.inject({ method: 'GET', url: '/docs/guides/pt-BR' });
  expect(portugueseIndex.statusCode).toBe(200);
  expect(portugueseIndex.body).toContain('<h1>Guias do Lastro</h1>');

  const missing = await world.app.inject({ method: 'GET', url: '/docs/guides/pt-BR/nada' });
  expect(missing.statusCode).toBe(404);
});
