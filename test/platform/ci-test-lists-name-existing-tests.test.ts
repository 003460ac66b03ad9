import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** A list's lines as .ci/run reads them: `grep -v '^#'`, each line a vitest filter as it stands. */
const linesOf = (list: string) => readFileSync(path.join(root, '.ci', list), 'utf8').split('\n');
const listed = (list: string) => linesOf(list).filter((line) => line !== '' && !line.startsWith('#'));

/** Test files under a folder, relative to the repository. */
function testFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules'))
    .map((file) => path.join(folder, file));
}

describe.each(['postgres-tests', 'citus-tests'])('.ci/%s', (list) => {
  it('names test files that exist, each once, a line each as the shell reads it', () => {
    const files = listed(list);
    expect(files.length).toBeGreaterThan(0);
    // A stray space or carriage return makes a filter that matches nothing, skipped in silence.
    expect(linesOf(list).filter((line) => line !== line.trim())).toEqual([]);
    expect(files.filter((file) => !existsSync(path.join(root, file)) || !file.endsWith('.test.ts'))).toEqual(
      [],
    );
    expect(new Set(files).size).toBe(files.length);
  });
});

it('.ci/postgres-tests lists or leaves out, saying why, every test that does something only on PostgreSQL', () => {
  const lines = linesOf('postgres-tests');
  const leftOut = lines.flatMap((line) => /^# left out: (\S+) \(.+\)$/.exec(line)?.[1] ?? []);
  expect(leftOut.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  expect(leftOut.filter((file) => listed('postgres-tests').includes(file))).toEqual([]);
  const covered = new Set([...listed('postgres-tests'), ...leftOut]);
  const postgresOnly = [...testFiles('src'), ...testFiles('test')].filter((file) =>
    /onRealPostgres\(|testServerUrl\(/.test(readFileSync(path.join(root, file), 'utf8')),
  );
  expect(postgresOnly.length).toBeGreaterThan(0);
  expect(postgresOnly.filter((file) => !covered.has(file))).toEqual([]);
});
