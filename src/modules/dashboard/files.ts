/**
 * The built dashboard (vite build into dist/dashboard, run by `npm ci` through `prepare`): which file
 * answers a path under /dashboard, with its type and cache policy. Paths never leave the build dir.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIST_DIR = fileURLToPath(new URL('../../../dist/dashboard/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface DashboardFile {
  body: Buffer;
  type: string;
  cacheControl: string;
}

/** Hashed assets never change under their name; the page itself is revalidated on every visit. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

async function readInside(dir: string, relative: string): Promise<Buffer | null> {
  const full = path.resolve(dir, relative);
  if (!full.startsWith(path.resolve(dir) + path.sep)) return null;
  const info = await stat(full).catch(() => null);
  if (!info?.isFile()) return null;
  return readFile(full);
}

/**
 * The file for `rest` (the path after /dashboard/): an asset by its name, anything else the app's
 * index.html (the browser-side router takes it from there). `missing` when the build is absent.
 */
export async function dashboardFile(
  rest: string,
  dir: string = DIST_DIR,
): Promise<DashboardFile | 'missing' | 'not_found'> {
  const clean = rest.replace(/^\/+/, '');
  const ext = path.extname(clean);
  if (clean && ext && TYPES[ext] && ext !== '.html') {
    const body = await readInside(dir, clean);
    if (!body) return 'not_found';
    return {
      body,
      type: TYPES[ext],
      cacheControl: clean.startsWith('assets/') ? IMMUTABLE : REVALIDATE,
    };
  }
  const index = await readInside(dir, 'index.html');
  if (!index) return 'missing';
  return { body: index, type: TYPES['.html']!, cacheControl: REVALIDATE };
}
