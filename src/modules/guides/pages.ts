/** The guides' pages, in English (docs/guides) and in Portuguese (docs/guides/pt-BR). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml, type LinkResolver, renderMarkdown } from './markdown.ts';

const GUIDES_DIR = path.resolve(import.meta.dirname, '../../../docs/guides');
export const NAME = '^[a-z][a-z-]{0,40}$';

/** The guides of one folder, read once at start: name (file without .md) → markdown, in reading order. */
function loadGuides(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map();
  const names = readdirSync(dir)
    .filter((file) => new RegExp(NAME).test(file.replace(/\.md$/, '')) && file.endsWith('.md'))
    .map((file) => file.replace(/\.md$/, ''));
  // The quick start first, the rest by name.
  names.sort((a, b) => Number(b === 'quickstart') - Number(a === 'quickstart') || a.localeCompare(b));
  return new Map(names.map((name) => [name, readFileSync(path.join(dir, `${name}.md`), 'utf8')]));
}

/** One language of the guides: where its pages are served and the words of its pages. */
export interface Language {
  lang: string;
  base: string;
  guides: Map<string, string>;
  words: { guides: string; reference: string; source: string; title: string; switchTo: string };
}

export function languages(): [Language, Language] {
  const english: Language = {
    lang: 'en',
    base: '/docs/guides',
    guides: loadGuides(GUIDES_DIR),
    words: {
      guides: 'Guides',
      reference: 'API reference',
      source: 'Markdown source',
      title: 'Lastro guides',
      switchTo: 'Em português',
    },
  };
  // The Portuguese translations (docs/guides/pt-BR), with the English guides' code blocks.
  const portuguese: Language = {
    lang: 'pt-BR',
    base: '/docs/guides/pt-BR',
    guides: loadGuides(path.join(GUIDES_DIR, 'pt-BR')),
    words: {
      guides: 'Guias',
      reference: 'Referência da API',
      source: 'Código-fonte em Markdown',
      title: 'Guias do Lastro',
      switchTo: 'In English',
    },
  };
  return [english, portuguese];
}

const titleOf = (name: string, markdown: string) => /^# (.+)$/m.exec(markdown)?.[1] ?? name;

/**
 * Another guide (`pix.md#charges`) opens as its page, in the page's language; the other language's
 * (`pt-BR/pix.md` from English, `../pix.md` from Portuguese) as its page; an outside page as itself;
 * anything else is text.
 */
const resolverFor =
  (own: Language, other: Language): LinkResolver =>
  (target) => {
    if (/^https?:\/\//.test(target) || target.startsWith('#')) return target;
    const guide = /^(?:\.\/)?(pt-BR\/|\.\.\/)?([a-z][a-z-]*)\.md(#[\w-]*)?$/.exec(target);
    if (!guide) return undefined;
    // From English the translation is in pt-BR/; from a translation the English guide is in ../.
    const toOther = guide[1] !== undefined && guide[1] === (other.lang === 'en' ? '../' : `${other.lang}/`);
    const language = guide[1] === undefined ? own : toOther ? other : undefined;
    if (!language?.guides.has(guide[2]!)) return undefined;
    return `${language.base}/${guide[2]}${guide[3] ?? ''}`;
  };

const STYLE =
  'body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}' +
  'pre{background:#f4f5f7;padding:.8rem;overflow-x:auto;border-radius:4px}code{font-size:.92em}' +
  'table{border-collapse:collapse;font-size:.92em}td,th{border:1px solid #d0d4da;padding:.3rem .5rem;vertical-align:top}' +
  'nav{font-size:.9em;margin-bottom:1.5rem}blockquote{border-left:3px solid #d0d4da;margin:0;padding-left:1rem}';

const guideLinks = (language: Language) =>
  [...language.guides].map(
    ([name, markdown]) => `<a href="${language.base}/${name}">${escapeHtml(titleOf(name, markdown))}</a>`,
  );

/**
 * A whole page: the same page in the other language, links to the index and the reference, (on a
 * guide) the other guides, then the body.
 */
function page(
  language: Language,
  title: string,
  switchTo: string,
  body: string,
  withGuides: boolean,
): string {
  const { words } = language;
  const nav = withGuides ? `<br>${guideLinks(language).join(' · ')}` : '';
  return `<!doctype html><html lang="${language.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · ${words.title}</title><style>${STYLE}</style></head>
<body><nav><a href="${switchTo}" hreflang="${language.lang === 'en' ? 'pt-BR' : 'en'}">${words.switchTo}</a> · <a href="${language.base}">${words.guides}</a> · <a href="/docs">${words.reference}</a>${nav}</nav>
${body}
</body></html>`;
}

/** Every guide page of one language, by name. */
export function guidePages(own: Language, other: Language): Map<string, string> {
  const resolve = resolverFor(own, other);
  return new Map(
    [...own.guides].map(([name, markdown]) => {
      const switchTo = other.guides.has(name) ? `${other.base}/${name}` : other.base;
      const body = `${renderMarkdown(markdown, resolve)}\n<p><a href="${own.base}/${name}.md">${own.words.source}</a></p>`;
      return [name, page(own, titleOf(name, markdown), switchTo, body, true)];
    }),
  );
}

/** The index of one language: its guides, then the other language's. */
export function indexPage(own: Language, other: Language): string {
  const intro =
    own.lang === 'en'
      ? 'Beside the <a href="/docs">API reference</a>. Every code block in them is run by the test suite; each guide is also Markdown (add <code>.md</code> to its address).'
      : 'Ao lado da <a href="/docs">referência da API</a>. Os blocos de código são os mesmos dos guias em inglês, executados pela suíte de testes; cada guia também está em Markdown (acrescente <code>.md</code> ao endereço).';
  const list = (language: Language) =>
    `<ul>\n${guideLinks(language)
      .map((a) => `<li>${a}</li>`)
      .join('\n')}\n</ul>`;
  const others = other.guides.size ? `<h2 lang="${other.lang}">${other.words.title}</h2>${list(other)}` : '';
  return page(
    own,
    own.words.guides,
    other.base,
    `<h1>${own.words.title}</h1><p>${intro}</p>${list(own)}${others}`,
    false,
  );
}
