/**
 * The dashboard reads the API through @lastro/sdk only: no file of it imports server source, and
 * the one list the SDK does not carry (the networks) is the server's, in its order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { NETWORKS } from '../../src/providers/chain/networks.ts';
import { NETWORKS as DASHBOARD_NETWORKS } from '../../web/dashboard/src/pages/networks.ts';
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

it('offers the networks the server sends on', () => {
  expect(DASHBOARD_NETWORKS).toEqual(NETWORKS);
});
