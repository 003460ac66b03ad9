/**
 * A BR Code as a QR image. The PNG is written here as 1-bit grayscale: the qrcode package renders
 * RGBA through pngjs, trying five row filters on 320 × 320 × 4 bytes, which cost a checkout more CPU
 * than all its SQL (soak profile, 2026-11-24). The pixels are the same as that package's rendering
 * with the same margin and width (test/pix/qr-image.test.ts compares them).
 */
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const QR_MARGIN = 2;
export const QR_WIDTH = 320;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The QR of `text` (error correction M, as the qrcode package's default) as a PNG of QR_WIDTH pixels. */
export function qrPng(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  // The package's own geometry: a fractional scale, a margin of QR_MARGIN modules, width floored.
  const scale = QR_WIDTH >= size + QR_MARGIN * 2 ? QR_WIDTH / (size + QR_MARGIN * 2) : 4;
  const width = Math.floor((size + QR_MARGIN * 2) * scale);
  const margin = QR_MARGIN * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * width, 0);
  for (let y = 0; y < width; y++) {
    const row = y * (rowBytes + 1); // its first byte is the filter type: 0, none
    for (let x = 0; x < width; x++) {
      const inside = y >= margin && x >= margin && y < width - margin && x < width - margin;
      const dark = inside && modules.get(Math.floor((y - margin) / scale), Math.floor((x - margin) / scale));
      if (!dark) raw[row + 1 + (x >> 3)]! |= 0x80 >> (x & 7); // 1 is white in 1-bit grayscale
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, filter method 0, no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const qrPngDataUrl = (text: string) => `data:image/png;base64,${qrPng(text).toString('base64')}`;

export const qrSvg = (text: string) => QRCode.toString(text, { type: 'svg', margin: QR_MARGIN });
