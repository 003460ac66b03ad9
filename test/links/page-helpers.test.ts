/** The hosted page's building blocks: escaping, colours and their contrast, languages, money for people. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText } from '../../src/modules/links/service.ts';
import { contrast, DEFAULT_BRAND, paletteOf, textOn } from '../../src/platform/hosted-page/colours.ts';
import { escapeHtml, html, jsonBlock } from '../../src/platform/hosted-page/html.ts';
import { pickLocale } from '../../src/platform/hosted-page/locale.ts';
import { formatBrl } from '../../src/platform/hosted-page/money.ts';

const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);

describe('escaping', () => {
  it('escaped text holds no markup character, and reads back as the original', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = escapeHtml(text);
        expect(out).not.toMatch(/[<>"']/);
        const back = out.replace(
          /&(lt|gt|quot|#39|amp);/g,
          (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!,
        );
        expect(back).toBe(text);
      }),
    );
  });

  it('html escapes every value but its own fragments', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p title="${'"x"'}">${inner}${['<a>', null, undefined, false, 1]}</p>`.value).toBe(
      '<p title="&quot;x&quot;"><b>&lt;i&gt;</b>&lt;a&gt;1</p>',
    );
  });

  it('a JSON block cannot close its script element, and parses back', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, text) => {
        const data = { value, text: `${text}</script><!--\u2028` };
        const out = jsonBlock(data).value;
        expect(out.toLowerCase()).not.toContain('</script');
        expect(out).not.toContain('<!--');
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(data)));
      }),
    );
  });
});

describe('colours', () => {
  it('the text chosen on any colour contrasts at least 4.5:1 (WCAG AA)', () => {
    fc.assert(
      fc.property(hex, (colour) => {
        expect(contrast(colour, textOn(colour))).toBeGreaterThanOrEqual(4.5);
      }),
    );
  });

  it('anything but #rrggbb falls back to the defaults', () => {
    expect(paletteOf({ brand_color: 'red', background_color: '#fff' })).toMatchObject({
      brand: DEFAULT_BRAND,
      background: '#f4f6f8',
    });
    expect(paletteOf({ brand_color: '#ABCDEF' }).brand).toBe('#abcdef');
    expect(contrast(DEFAULT_BRAND, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('languages', () => {
  it.each([
    [undefined, 'pt-BR'],
    ['', 'pt-BR'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'pt-BR'],
    ['en;q=0.5, pt;q=0.9', 'pt-BR'],
    ['fr-FR, en;q=0.4', 'en'],
    ['de, fr', 'pt-BR'],
    ['en;q=0', 'pt-BR'],
  ])('%s → %s', (header, locale) => expect(pickLocale(header)).toBe(locale));
});

describe('money for people', () => {
  it('writes every amount exactly, either way round', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }), (minor) => {
        const pt = formatBrl(minor, 'pt-BR');
        const en = formatBrl(minor, 'en');
        expect(BigInt(pt.replace(/\D/g, ''))).toBe(minor);
        expect(BigInt(en.replace(/\D/g, ''))).toBe(minor);
        expect(pt).toMatch(/^R\$ \d{1,3}(\.\d{3})*,\d{2}$/);
        expect(en).toMatch(/^R\$\d{1,3}(,\d{3})*\.\d{2}$/);
      }),
    );
    expect(formatBrl(123456789n, 'pt-BR')).toBe('R$ 1.234.567,89');
    expect(formatBrl(5n, 'en')).toBe('R$0.05');
  });
});

describe('name folding for search', () => {
  it('folds accents and case', () => {
    expect(foldText('JOSÉ Álvaro Conceição Müller Ñandú')).toBe('jose alvaro conceicao muller nandu');
  });
});
