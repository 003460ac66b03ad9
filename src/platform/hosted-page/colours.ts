/**
 * The merchant's colours on the page. Only #rrggbb passes (the value lands in CSS, so anything else
 * could inject rules); the text on each colour is black or white, whichever contrasts more (WCAG 2
 * relative luminance), so a merchant's pale brand colour cannot make a button unreadable.
 */
const HEX = /^#[0-9a-fA-F]{6}$/;

export const isColour = (value: unknown): value is string => typeof value === 'string' && HEX.test(value);

/** WCAG 2 relative luminance of #rrggbb. */
export function luminance(colour: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever reads better on `background`. */
export const textOn = (background: string): string =>
  contrast(background, '#000000') >= contrast(background, '#ffffff') ? '#000000' : '#ffffff';

export const DEFAULT_BRAND = '#00695c';
export const DEFAULT_BACKGROUND = '#f4f6f8';

export interface Palette {
  brand: string;
  brandText: string;
  background: string;
  text: string;
}

export function paletteOf(design: { brand_color?: unknown; background_color?: unknown }): Palette {
  const brand = isColour(design.brand_color) ? design.brand_color.toLowerCase() : DEFAULT_BRAND;
  const background = isColour(design.background_color)
    ? design.background_color.toLowerCase()
    : DEFAULT_BACKGROUND;
  return { brand, brandText: textOn(brand), background, text: textOn(background) };
}
