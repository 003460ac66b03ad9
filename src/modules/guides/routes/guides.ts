import { Type } from 'typebox';
import { notFound } from '../../../platform/errors.ts';
import type { App } from '../../../platform/schema.ts';
import { guidePages, indexPage, type Language, languages, NAME } from '../pages.ts';

/** GET {base} (the index) and GET {base}/:name (a guide; its Markdown with .md) for one language. */
function serve(app: App, own: Language, other: Language) {
  const html = guidePages(own, other);
  const index = indexPage(own, other);
  const options = { config: { auth: 'none' as const } };
  app.get(
    own.base,
    { ...options, schema: { hide: true, response: { 200: Type.String() } } },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(index),
  );
  app.get(
    `${own.base}/:name`,
    {
      ...options,
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ pattern: NAME.replace('{0,40}', '{0,40}(?:\\.md)?') }) }),
        response: { 200: Type.String() },
      },
    },
    async (request, reply) => {
      const asMarkdown = request.params.name.endsWith('.md');
      const name = request.params.name.replace(/\.md$/, '');
      const markdown = own.guides.get(name);
      if (markdown === undefined) throw notFound('Guide');
      // The page by default; the source with .md, as text so a browser shows it rather than saves it.
      if (asMarkdown) return reply.type('text/plain; charset=utf-8').send(markdown);
      return reply.type('text/html; charset=utf-8').send(html.get(name) ?? '');
    },
  );
}

export default function route(app: App) {
  const [english, portuguese] = languages();
  serve(app, english, portuguese);
  serve(app, portuguese, english);
}
