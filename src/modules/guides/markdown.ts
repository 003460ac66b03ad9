/**
 * A small Markdown-to-HTML renderer for our own guides: headings, paragraphs, fenced code, lists,
 * tables, block quotes, rules, and inline code, emphasis and links (CommonMark's common subset,
 * https://spec.commonmark.org/0.31.2/). Everything from the text is escaped, raw HTML included, so a
 * guide cannot inject markup; a link goes out only to http(s) or to another guide.
 */

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** How a link's target is served: another guide's page, an outside page, or no link at all. */
export type LinkResolver = (target: string) => string | undefined;

/** An id for a heading, as GitHub makes them, so `guide.md#section` links land. */
export const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

function link(text: string, target: string, resolve: LinkResolver): string {
  const href = resolve(target);
  if (href === undefined) return text;
  const external = /^https?:/.test(href) ? ' rel="noopener noreferrer"' : '';
  return `<a href="${escapeHtml(href)}"${external}>${text}</a>`;
}

/** Inline markup of one escaped-later line: code spans first, so nothing inside them is read. */
export function inline(text: string, resolve: LinkResolver): string {
  return text
    .split(/(`+[^`]*?`+)/)
    .map((part, index) => {
      if (index % 2 === 1) return `<code>${escapeHtml(part.replace(/^`+|`+$/g, ''))}</code>`;
      return escapeHtml(part)
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, target: string) =>
          link(label, target.replace(/&amp;/g, '&'), resolve),
        )
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
        .replace(/(^|[\s(])_([^_\s][^_]*)_(?=$|[\s).,;:])/g, '$1<em>$2</em>');
    })
    .join('');
}

const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));

function table(lines: string[], resolve: LinkResolver): string {
  const [head, , ...rows] = lines;
  const cells = (row: string, tag: string) =>
    `<tr>${cellsOf(row)
      .map((cell) => `<${tag}>${inline(cell, resolve)}</${tag}>`)
      .join('')}</tr>`;
  return `<table><thead>${cells(head!, 'th')}</thead><tbody>${rows.map((row) => cells(row, 'td')).join('')}</tbody></table>`;
}

function list(lines: string[], resolve: LinkResolver): string {
  const ordered = /^\s*\d+\.\s/.test(lines[0]!);
  const items: string[] = [];
  for (const line of lines) {
    const start = /^(\s*)([-*+]|\d+\.)\s+(.*)$/.exec(line);
    if (start && start[1]!.length < 2) items.push(start[3]!);
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  const tag = ordered ? 'ol' : 'ul';
  return `<${tag}>${items.map((item) => `<li>${inline(item, resolve)}</li>`).join('')}</${tag}>`;
}

type Block = { kind: 'code'; lang: string; lines: string[] } | { kind: 'text'; lines: string[] };

/** The document cut into fenced code blocks and runs of other lines; HTML comments are dropped. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let code: Extract<Block, { kind: 'code' }> | undefined;
  for (const line of markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n')) {
    const fence = /^\s*```(.*)$/.exec(line);
    if (code) {
      if (fence && fence[1]!.trim() === '') code = undefined;
      else code.lines.push(line);
    } else if (fence) {
      code = { kind: 'code', lang: fence[1]!.trim(), lines: [] };
      blocks.push(code);
    } else {
      const last = blocks.at(-1);
      if (last?.kind === 'text') last.lines.push(line);
      else blocks.push({ kind: 'text', lines: [line] });
    }
  }
  return blocks;
}

const LIST_ITEM = /^\s*([-*+]|\d+\.)\s+/;

/** A run of lines without code: each paragraph, heading, list, table or quote by its first line. */
function textBlocks(lines: string[], resolve: LinkResolver): string[] {
  const html: string[] = [];
  let index = 0;
  const takeWhile = (test: (line: string) => boolean) => {
    const taken: string[] = [];
    while (index < lines.length && test(lines[index]!)) taken.push(lines[index++]!);
    return taken;
  };
  while (index < lines.length) {
    const line = lines[index]!;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (line.trim() === '') index++;
    else if (heading) {
      const level = heading[1]!.length;
      html.push(
        `<h${level} id="${escapeHtml(slugOf(heading[2]!))}">${inline(heading[2]!, resolve)}</h${level}>`,
      );
      index++;
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      html.push('<hr>');
      index++;
    } else if (line.startsWith('|'))
      html.push(
        table(
          takeWhile((l) => l.startsWith('|')),
          resolve,
        ),
      );
    else if (line.startsWith('>')) {
      const quoted = takeWhile((l) => l.startsWith('>')).map((l) => l.replace(/^>\s?/, ''));
      html.push(`<blockquote>${textBlocks(quoted, resolve).join('\n')}</blockquote>`);
    } else if (LIST_ITEM.test(line))
      html.push(
        list(
          takeWhile((l) => l.trim() !== ''),
          resolve,
        ),
      );
    else {
      const paragraph = takeWhile((l) => l.trim() !== '' && !/^(#{1,6}\s|\||>)/.test(l));
      html.push(`<p>${inline(paragraph.join(' '), resolve)}</p>`);
    }
  }
  return html;
}

/** The guide's HTML body: every character of its text escaped, links resolved by `resolve`. */
export function renderMarkdown(markdown: string, resolve: LinkResolver): string {
  return blocksOf(markdown)
    .flatMap((block) =>
      block.kind === 'code'
        ? [
            `<pre><code${block.lang ? ` class="language-${escapeHtml(block.lang)}"` : ''}>${escapeHtml(block.lines.join('\n'))}</code></pre>`,
          ]
        : textBlocks(block.lines, resolve),
    )
    .join('\n');
}
