import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { notFound } from '../../../platform/errors.ts';
import type { App } from '../../../platform/schema.ts';

const GUIDES_DIR = path.resolve(import.meta.dirname, '../../../../docs/guides');
const NAME = '^[a-z][a-z-]{0,40}$';

/** The guides, read once at start: name (file without .md) → markdown, in reading order. */
function loadGuides(): Map<string, string> {
  const names = readdirSync(GUIDES_DIR)
    .filter((file) => new RegExp(NAME).test(file.replace(/\.md$/, '')) && file.endsWith('.md'))
    .map((file) => file.replace(/\.md$/, ''));
  // The quick start first, the rest by name.
  names.sort((a, b) => Number(b === 'quickstart') - Number(a === 'quickstart') || a.localeCompare(b));
  return new Map(names.map((name) => [name, readFileSync(path.join(GUIDES_DIR, `${name}.md`), 'utf8')]));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export default function route(app: App) {
  const guides = loadGuides();
  const titleOf = (markdown: string) => /^# (.+)$/m.exec(markdown)?.[1] ?? '';
  const index = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lastro guides</title></head>
<body><h1>Lastro guides</h1><p>Beside the <a href="/docs">API reference</a>. Each guide is Markdown; every code block in it is run by the test suite.</p><ul>
${[...guides]
  .map(
    ([name, markdown]) =>
      `<li><a href="/docs/guides/${name}">${escapeHtml(titleOf(markdown) || name)}</a></li>`,
  )
  .join('\n')}
</ul></body></html>`;

  app.get(
    '/docs/guides',
    {
      config: { auth: 'none' },
      schema: { hide: true, response: { 200: Type.String() } },
    },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(index),
  );
  app.get(
    '/docs/guides/:name',
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ pattern: NAME.replace('{0,40}', '{0,40}(?:\\.md)?') }) }),
        response: { 200: Type.String() },
      },
    },
    async (request, reply) => {
      const markdown = guides.get(request.params.name.replace(/\.md$/, ''));
      if (markdown === undefined) throw notFound('Guide');
      // Markdown read as plain text: links between guides (`pix.md`) resolve to this route too.
      return reply.type('text/plain; charset=utf-8').send(markdown);
    },
  );
}
