import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../../platform/schema.ts';
import { dashboardFile } from '../files.ts';
import { DASHBOARD_HEADERS, MISSING_BUILD_PAGE } from '../headers.ts';

const Html = { 'text/html': { schema: Type.String() } };

async function answer(reply: FastifyReply, rest: string) {
  reply.headers(DASHBOARD_HEADERS);
  const file = await dashboardFile(rest);
  if (file === 'missing')
    return reply
      .code(503)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(MISSING_BUILD_PAGE);
  if (file === 'not_found')
    return reply
      .code(404)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('Not found');
  return reply.type(file.type).header('cache-control', file.cacheControl).send(file.body);
}

/** The owner's web dashboard: static files of the build, every other path its index.html (SPA). */
export default function route(app: App) {
  const config = { auth: 'none' as const, rateLimit: false as const, errors: [] };
  app.get(
    '/dashboard',
    {
      config,
      schema: {
        tags: ['dashboard'],
        summary: "The owner's web dashboard (HTML; it calls this API with the session cookie)",
        description:
          'The single-page web dashboard for the owner: log in, keys, balances, payments, webhooks. Public HTML; every call it makes is this API with the session cookie. 503 with an HTML page when the dashboard was not built on this server.',
        security: [],
        response: {
          200: {
            description: 'the dashboard application',
            content: {
              'text/html': { schema: Type.String(), example: '<!doctype html><html lang="pt-BR">…</html>' },
            },
          },
          503: { description: 'the dashboard was not built on this server', content: Html },
        },
      },
    },
    (_request, reply) => answer(reply, ''),
  );
  app.get(
    '/dashboard/*',
    // Hidden: the build's files and the app's own paths, not API.
    { config, schema: { hide: true, response: { 200: { description: 'a file of the dashboard' } } } },
    (request, reply) => answer(reply, (request.params as { '*': string })['*']),
  );
}
