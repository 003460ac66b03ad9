/** `npm pack` of @lastro/sdk, as a release makes it, and npm run on an outside project. */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './snippets.ts';

export interface Packed {
  /** The tarball, beside the other files of `destination`. */
  tarball: string;
  files: string[];
}

export interface Outcome {
  status: number;
  output: string;
}

/**
 * Runs a command without blocking this process (a test's server may be answering the command) and
 * without the `npm_*` variables an outer `npm test` sets (its workspace, its prefix), which would send
 * an inner npm back to the repository.
 */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const outer = Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name));
  return new Promise<Outcome & { stdout: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...Object.fromEntries(outer), ...env }, timeout: 150_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        resolve({
          status: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          output: `${stdout}${stderr}`,
          stdout,
        }),
    );
  });
}

/**
 * The tarball `npm pack` makes in packages/sdk: its prepack script's build, written into a copy of
 * the package in `destination` rather than packages/sdk/dist, which other tests read meanwhile (the
 * guides run against it) and a build empties first.
 */
export async function packSdk(destination: string): Promise<Packed> {
  const sdk = path.join(ROOT, 'packages/sdk');
  const manifest = JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8'));
  const staging = path.join(destination, 'sdk-package');
  mkdirSync(staging, { recursive: true });
  for (const file of ['package.json', ...manifest.files.filter((name: string) => name !== 'dist')])
    copyFileSync(path.join(sdk, file), path.join(staging, file));
  const build = await run(process.execPath, [path.join(sdk, 'build.mjs'), path.join(staging, 'dist')], sdk);
  if (build.status !== 0) throw new Error(`the SDK's build failed:\n${build.output}`);
  expect(manifest.scripts.prepack, 'npm pack builds the package as this test does').toBe('node build.mjs');

  const pack = ['pack', staging, '--pack-destination', destination, '--json', '--ignore-scripts'];
  const outcome = await run('npm', pack, destination);
  if (outcome.status !== 0) throw new Error(`npm pack failed:\n${outcome.output}`);
  const [packed] = JSON.parse(outcome.stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(destination, packed!.filename), files: packed!.files.map((file) => file.path) };
}
