import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/platform/errors.ts';

describe('docs/errors.md', () => {
  it('documents every error code with the status the service answers', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
    const documented = new Map(
      [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((match) => [match[1]!, Number(match[2])]),
    );
    expect(Object.fromEntries(documented)).toEqual(ERROR_STATUS);
  });
});
