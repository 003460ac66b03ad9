/** The dashboard reads the API through @lastro/sdk only: no file of it imports server source. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { DASHBOARD_SRC, dashboardSources } from './sources.ts';

it('imports nothing from outside web/dashboard but packages', () => {
  const outside: string[] = [];
  for (const file of dashboardSources()) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bfrom '(\.[^']*)'/g)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      if (!target.startsWith(`${DASHBOARD_SRC}${path.sep}`))
        outside.push(`${path.relative(DASHBOARD_SRC, file)}: ${match[1]}`);
    }
  }
  expect(outside).toEqual([]);
});
