/** A hosted page speaks Brazilian Portuguese, or English when the browser prefers it (Accept-Language). */
export type Locale = 'pt-BR' | 'en';

/** The most preferred of pt and en in an Accept-Language header (q-values honoured); pt-BR otherwise. */
export function pickLocale(header: string | undefined): Locale {
  const ranked = (header ?? '')
    .split(',')
    .map((entry, order) => {
      const [tag = '', ...params] = entry.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.q > 0 && (entry.tag.startsWith('pt') || entry.tag.startsWith('en')))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.tag.startsWith('en') ? 'en' : 'pt-BR';
}

/**
 * A `?lang=` the link's sender chose (pt, pt-BR, en, en-US…) wins over the browser's preference; a
 * language the page does not speak is ignored rather than refused, so a hand-edited link still opens.
 */
export function chooseLocale(acceptLanguage: string | undefined, lang: string | undefined): Locale {
  return lang && /^(pt|en)\b/i.test(lang) ? pickLocale(lang) : pickLocale(acceptLanguage);
}
