/**
 * Long work says how far along it is: a redrawn bar on a terminal, plain lines elsewhere, always on
 * stderr, so the commands' stdout (their report, --json) stays what a program reads.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { progressTo, SILENT } from '../../src/platform/progress.ts';
import { onRealPostgres } from '../support/database.ts';

const root = path.resolve(import.meta.dirname, '../..');

function recorder(isTTY: boolean, columns?: number) {
  const written: string[] = [];
  return { isTTY, columns, written, write: (text: string) => written.push(text) };
}

describe('the progress reporter', () => {
  it('off a terminal: one plain line per step and one at the end, no control characters', () => {
    const stream = recorder(false);
    const task = progressTo(stream).task('migrate', 3);
    task.step('0001_init.sql');
    task.step('0002_ledger.sql');
    task.step('0003_pix.sql');
    task.done('3 migration(s) applied');
    expect(stream.written.join('')).toBe(
      'migrate: 1/3 0001_init.sql\nmigrate: 2/3 0002_ledger.sql\nmigrate: 3/3 0003_pix.sql\nmigrate: 3 migration(s) applied\n',
    );
  });

  it('on a terminal: one line redrawn with a bar of the steps done, ended by the summary', () => {
    const stream = recorder(true, 200);
    const task = progressTo(stream).task('verify', 4);
    task.step('journals_balance');
    task.step('seal_chain');
    task.done('no violations');
    expect(stream.written).toEqual([
      '\x1b[2K\rverify [........................] 1/4 journals_balance',
      '\x1b[2K\rverify [######..................] 2/4 seal_chain',
      '\x1b[2K\rverify: no violations\n',
    ]);
    expect(stream.written.slice(0, -1).some((text) => text.includes('\n'))).toBe(false);
  });

  it('on a narrow terminal: the line is cut to fit, so a redraw never wraps', () => {
    const stream = recorder(true, 30);
    progressTo(stream).task('distribute', 40).step('webhook_deliveries_with_a_long_name');
    const line = stream.written[0]!.replace('\x1b[2K\r', '');
    expect(line.length).toBeLessThan(30);
    expect(line.endsWith('…')).toBe(true);
  });

  it('a task of unknown length counts its steps without a bar', () => {
    const stream = recorder(true);
    progressTo(stream).task('soak', undefined).step('payouts');
    expect(stream.written).toEqual(['\x1b[2K\rsoak 1 payouts']);
  });

  it('SILENT writes nothing', () => {
    const task = SILENT.task('x', 1);
    expect(() => {
      task.step('a');
      task.done('b');
    }).not.toThrow();
  });
});

const dataDir = mkdtempSync(path.join(tmpdir(), 'lastro-progress-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The CLI with stdout and stderr apart, as a shell pipe would take them. */
function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

// The commands run on their own embedded database whatever the suite's: once, in the PGlite stage.
describe.skipIf(onRealPostgres())('the commands', () => {
  it('verify --json: progress of the migrations and the checks on stderr, the JSON alone on stdout', async () => {
    const run = await cli(['verify', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, violations: 0 });
    expect(run.stderr).toMatch(/^migrate: 1\/\d+ 0001_\S+\.sql$/m);
    expect(run.stderr).toMatch(/^migrate: \d+ migration\(s\) applied$/m);
    expect(run.stderr).toMatch(/^verify: \d+\/\d+ seal_chain$/m);
    expect(run.stderr).toMatch(/^verify: no violations$/m);
  }, 120_000);

  it('reconcile --json: its stages on stderr, the JSON alone on stdout', async () => {
    const run = await cli([
      'reconcile',
      '--environment',
      'sandbox',
      '--from',
      '2026-11-24',
      '--to',
      '2026-11-25',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, environment: 'sandbox', findings: [] });
    expect(run.stderr).toMatch(/^reconcile: 1\/5 listing the PIX the PSP received$/m);
    expect(run.stderr).toMatch(/^reconcile: 5\/5 storing the run$/m);
    expect(run.stderr).toMatch(/^reconcile: the books agree with the PSP$/m);
    // The database was migrated by the run before: no migration progress this time.
    expect(run.stderr).not.toMatch(/^migrate:/m);
  }, 120_000);
});
