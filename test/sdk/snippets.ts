/**
 * The code blocks of the guides (docs/guides/*.md) and how to run them: sh with bash (curl and jq,
 * exported variables carried to the next block), ts with tsx, python with python3, go with `go run`.
 * A block marked `no-run` after its language is shown only (installing, starting the server).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const GUIDES_DIR = path.join(ROOT, 'docs/guides');
export const RUNNABLE = ['sh', 'ts', 'python', 'go'] as const;
export type Language = (typeof RUNNABLE)[number];

export interface Block {
  guide: string;
  line: number;
  language: string;
  run: boolean;
  code: string;
}

export function guideFiles(): string[] {
  return readdirSync(GUIDES_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort();
}

export function blocksOf(guide: string): Block[] {
  const lines = readFileSync(path.join(GUIDES_DIR, guide), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    const flags = open[2]!.split(/\s+/);
    blocks.push({
      guide,
      line: start + 1,
      language: open[1]!,
      run: !flags.includes('no-run'),
      code: `${body.join('\n')}\n`,
    });
  }
  return blocks;
}

export const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

export interface Outcome {
  code: number | null;
  output: string;
}

/** Runs one block in `dir` with `env`; sh blocks read and write `dir/state.sh` (their exports). */
export function runBlock(block: Block, dir: string, env: Record<string, string>, timeoutMs = 90_000) {
  const state = path.join(dir, 'state.sh');
  const file = path.join(
    dir,
    `block-${block.line}.${{ sh: 'sh', ts: 'ts', python: 'py', go: 'go' }[block.language as Language]}`,
  );
  writeFileSync(file, block.code);
  // Every language sees what the sh blocks before it exported (not the test's own variables, so a
  // run with other values of those sees them).
  const given = Object.keys(env).join('|');
  const command = {
    sh: `set -euo pipefail; source ${state}; source ${file}; export -p | grep -Ev '^declare -x (${given})=' > ${state}`,
    ts: `source ${state}; exec ${path.join(ROOT, 'node_modules/.bin/tsx')} ${file}`,
    python: `source ${state}; exec python3 ${file}`,
    go: `source ${state}; exec go run ${file}`,
  }[block.language as Language];
  return new Promise<Outcome>((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: dir, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * A directory where `import '@lastro/sdk'` finds `sdkDir`, as in a project that installed it, and
 * `import 'standardwebhooks'` the stock library (the guides verify webhooks with it too).
 */
export function projectDir(dir: string, sdkDir: string): string {
  mkdirSync(path.join(dir, 'node_modules/@lastro'), { recursive: true });
  symlinkSync(sdkDir, path.join(dir, 'node_modules/@lastro/sdk'));
  symlinkSync(
    path.join(ROOT, 'node_modules/standardwebhooks'),
    path.join(dir, 'node_modules/standardwebhooks'),
  );
  linkBins(dir, sdkDir);
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'guide', private: true, type: 'module' }),
  );
  writeFileSync(path.join(dir, 'state.sh'), '');
  return dir;
}

/** The SDK's commands in node_modules/.bin, as npm install links them (so `npx lastro …` runs it, offline). */
function linkBins(dir: string, sdkDir: string): void {
  const { bin = {} } = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8')) as {
    bin?: Record<string, string>;
  };
  mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  for (const [name, file] of Object.entries(bin)) {
    const target = path.join(sdkDir, file);
    chmodSync(target, 0o755);
    symlinkSync(target, path.join(dir, 'node_modules/.bin', name));
  }
}
