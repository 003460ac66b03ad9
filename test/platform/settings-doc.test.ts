import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SETTINGS } from '../../src/config.ts';

it('the README settings table lists every setting the service reads, and no other', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Settings'),
    readme.indexOf('\n## ', readme.indexOf('## Settings') + 1),
  );
  const documented = [...section.matchAll(/^\| `([A-Z_0-9]+)` \|/gm)].map((match) => match[1]);
  expect(documented.sort()).toEqual(SETTINGS.map((setting) => setting.name).sort());
});
