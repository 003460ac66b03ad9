import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { notFound } from '../../../platform/errors.ts';
import type { App } from '../../../platform/schema.ts';
import { escapeHtml, type LinkResolver, renderMarkdown } from '../markdown.ts';

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

const titleOf = (name: string, markdown: string) => /^# (.+)$/m.exec(markdown)?.[1] ?? name;

/** Another guide (`pix.md#charges`) opens as its page; an outside page as itself; anything else is text. */
const resolverFor =
  (guides: Map<string, string>): LinkResolver =>
  (target) => {
    if (/^https?:\/\//.test(target) || target.startsWith('#')) return target;
    const guide = /^(?:\.\/)?([a-z][a-z-]*)\.md(#[\w-]*)?$/.exec(target);
    if (guide && guides.has(guide[1]!)) return `/docs/guides/${guide[1]}${guide[2] ?? ''}`;
    return undefined;
  };

const STYLE =
  'body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}' +
  'pre{background:#f4f5f7;padding:.8rem;overflow-x:auto;border-radius:4px}code{font-size:.92em}' +
  'table{border-collapse:collapse;font-size:.92em}td,th{border:1px solid #d0d4da;padding:.3rem .5rem;vertical-align:top}' +
  'nav{font-size:.9em;margin-bottom:1.5rem}blockquote{border-left:3px solid #d0d4da;margin:0;padding-left:1rem}';

/** A whole page: links to the index, the reference and (on a guide) the other guides, then the body. */
function page(title: string, guides: Map<string, string> | undefined, body: string): string {
  const nav = [...(guides ?? [])]
    .map(([name, markdown]) => `<a href="/docs/guides/${name}">${escapeHtml(titleOf(name, markdown))}</a>`)
    .join(' · ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Lastro guides</title><style>${STYLE}</style></head>
<body><nav><a href="/docs/guides">Guides</a> · <a href="/docs">API reference</a><br>${nav}</nav>
${body}
</body></html>`;
}

export default function route(app: App) {
  const guides = loadGuides();
  const resolve = resolverFor(guides);
  const html = new Map(
    [...guides].map(([name, markdown]) => [
      name,
      page(
        titleOf(name, markdown),
        guides,
        `${renderMarkdown(markdown, resolve)}\n<p><a href="/docs/guides/${name}.md">Markdown source</a></p>`,
      ),
    ]),
  );
  const index = page(
    'Guides',
    undefined,
    `<h1>Lastro guides</h1><p>Beside the <a href="/docs">API reference</a>. Every code block in them is run by the test suite; each guide is also Markdown (add <code>.md</code> to its address).</p><ul>
${[...guides].map(([name, markdown]) => `<li><a href="/docs/guides/${name}">${escapeHtml(titleOf(name, markdown))}</a></li>`).join('\n')}
</ul>`,
  );

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
      const asMarkdown = request.params.name.endsWith('.md');
      const name = request.params.name.replace(/\.md$/, '');
      const markdown = guides.get(name);
      if (markdown === undefined) throw notFound('Guide');
      // The page by default; the source with .md, as text so a browser shows it rather than saves it.
      if (asMarkdown) return reply.type('text/plain; charset=utf-8').send(markdown);
      return reply.type('text/html; charset=utf-8').send(html.get(name) ?? '');
    },
  );
}
