/** Every sentence the dashboard shows has its Portuguese, the default language. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PT } from '../../web/dashboard/src/pt.ts';

const SRC = path.resolve(import.meta.dirname, '../../web/dashboard/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

it('has a pt-BR translation for every t() sentence and page title', () => {
  const keys = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)+)'/g))
      keys.add(match[1]!.replace(/\\'/g, "'"));
    for (const match of text.matchAll(/\btitle: '([^']+)'/g)) keys.add(match[1]!);
  }
  expect(keys.size).toBeGreaterThan(200);
  const missing = [...keys].filter((key) => !(key in PT));
  expect(missing).toEqual([]);
});
