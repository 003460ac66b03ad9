/**
 * HTML from template literals, escaped by default: every interpolated value is escaped unless it is
 * already SafeHtml (a fragment built by `html` itself). This is the page's one escape helper.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function fragment(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return new SafeHtml(
    strings.reduce((out, text, i) => out + text + (i < values.length ? fragment(values[i]) : ''), ''),
  );
}

/**
 * Data for the page's script as a JSON block (`<script type="application/json">`): `<` is written as
 * \u003c so no value can close the element, and U+2028/2029 are escaped for older parsers.
 */
export const jsonBlock = (value: unknown): SafeHtml =>
  new SafeHtml(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
