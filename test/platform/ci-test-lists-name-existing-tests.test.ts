import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The files a list of .ci names: vitest takes each as a filter, and one that matches nothing is skipped silently. */
const listed = (list: string) =>
  readFileSync(path.join(root, '.ci', list), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

describe.each(['postgres-tests', 'citus-tests'])('.ci/%s', (list) => {
  it('names test files that exist, each once', () => {
    const files = listed(list);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !existsSync(path.join(root, file)) || !file.endsWith('.test.ts'))).toEqual(
      [],
    );
    expect(new Set(files).size).toBe(files.length);
  });
});
