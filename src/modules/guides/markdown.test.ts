import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

const guidesOnly = (target: string) => (target === 'pix.md' ? '/docs/guides/pix' : undefined);

describe('renderMarkdown', () => {
  it('escapes raw HTML in text, code spans and code blocks', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script> and `<b>`\n\n```html\n<img src=x onerror=alert(1)>\n```',
      guidesOnly,
    );
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>&lt;b&gt;</code>');
    expect(html).toContain(
      '<pre><code class="language-html">&lt;img src=x onerror=alert(1)&gt;</code></pre>',
    );
  });

  it('links another guide to its page and drops links it cannot serve', () => {
    const html = renderMarkdown('See [PIX](pix.md), [x](javascript:void) and [y](../other.md).', guidesOnly);
    expect(html).toBe('<p>See <a href="/docs/guides/pix">PIX</a>, x and y.</p>');
  });

  it('renders headings with ids, lists, tables and emphasis', () => {
    const html = renderMarkdown(
      '# A title\n\n- one **bold**\n- two\n\n| a | b |\n|---|---|\n| 1 | `2` |',
      guidesOnly,
    );
    expect(html).toBe(
      '<h1 id="a-title">A title</h1>\n<ul><li>one <strong>bold</strong></li><li>two</li></ul>\n' +
        '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><code>2</code></td></tr></tbody></table>',
    );
  });
});
