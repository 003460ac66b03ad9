/** Every sentence the dashboard shows has its Portuguese, the default language. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PT } from '../../web/dashboard/src/pt.ts';
import { dashboardSources } from './sources.ts';

it('has a pt-BR translation for every t() sentence and page title', () => {
  const keys = new Set<string>();
  for (const file of dashboardSources()) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)+)'/g))
      keys.add(match[1]!.replace(/\\'/g, "'"));
    for (const match of text.matchAll(/\btitle: '([^']+)'/g)) keys.add(match[1]!);
  }
  expect(keys.size).toBeGreaterThan(200);
  const missing = [...keys].filter((key) => !(key in PT));
  expect(missing).toEqual([]);
});
