/**
 * The QR PNG we write ourselves (1-bit grayscale) against the qrcode package's own rendering: a valid
 * PNG (signature, chunk CRCs, IHDR) whose pixels equal the package's image data for the same text,
 * margin and width.
 */
import { createRequire } from 'node:module';
import { crc32, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_MARGIN, QR_WIDTH, qrPng, qrPngDataUrl } from '../../src/modules/pix/qr-image.ts';

interface RendererUtils {
  getOptions(options: object): { color: { light: { r: number } } };
  getImageWidth(size: number, options: object): number;
  qrToImageData(data: Uint8ClampedArray, qr: unknown, options: object): void;
}
const utils = createRequire(import.meta.url)('qrcode/lib/renderer/utils.js') as RendererUtils;

/** The package's pixels for text: true where dark. */
function packagePixels(text: string): { width: number; dark: boolean[] } {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const options = utils.getOptions({ margin: QR_MARGIN, width: QR_WIDTH });
  const width = utils.getImageWidth(qr.modules.size, options);
  const data = new Uint8ClampedArray(width * width * 4);
  utils.qrToImageData(data, qr, options);
  return { width, dark: Array.from({ length: width * width }, (_, i) => data[i * 4] === 0) };
}

/** Reads our PNG back: checks its structure and every chunk's CRC, returns its pixels. */
function decode(png: Buffer): { width: number; height: number; dark: boolean[] } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `${type} CRC`).toBe(
      crc32(png.subarray(at + 4, at + 8 + length)),
    );
    chunks.push({ type, data });
    at += 12 + length;
  }
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const ihdr = chunks[0]!.data;
  const [width, height] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
  expect([...ihdr.subarray(8)]).toEqual([1, 0, 0, 0, 0]);
  const raw = inflateSync(chunks[1]!.data);
  const rowBytes = Math.ceil(width / 8);
  expect(raw.length).toBe((rowBytes + 1) * height);
  const dark: boolean[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * (rowBytes + 1)]).toBe(0);
    for (let x = 0; x < width; x++)
      dark.push((raw[y * (rowBytes + 1) + 1 + (x >> 3)]! & (0x80 >> (x & 7))) === 0);
  }
  return { width, height, dark };
}

describe('QR PNG', () => {
  it('has the pixels of the qrcode package for any text, short or as long as a BR Code', () => {
    fc.assert(
      // size 'max': lengths up to 300, so versions from 1 to past a BR Code's (about 5 to 10) are drawn.
      fc.property(fc.string({ minLength: 1, maxLength: 300, size: 'max' }), (text) => {
        const ours = decode(qrPng(text));
        const theirs = packagePixels(text);
        expect(ours.width).toBe(theirs.width);
        expect(ours.height).toBe(theirs.width);
        expect(ours.dark).toEqual(theirs.dark);
      }),
      { numRuns: 25 },
    );
  });

  it('is a data URL of that PNG for the checkout', () => {
    const brCode =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR';
    const url = qrPngDataUrl(brCode);
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')).toEqual(qrPng(brCode));
    const ours = decode(qrPng(brCode));
    expect(ours.width).toBe(QR_WIDTH);
    expect(ours.dark).toEqual(packagePixels(brCode).dark);
  });
});
