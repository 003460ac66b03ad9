/** `npm pack` of @lastro/sdk, as a release makes it, and npm run on an outside project. */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './snippets.ts';

export interface Packed {
  /** The tarball, beside the other files of `destination`. */
  tarball: string;
  files: string[];
}

interface Manifest {
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
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
 * packages/sdk as `npm pack` would pack it, in `destination`/sdk-package: its files, and dist/ built
 * there by its prepack script's build from the current sources, never packages/sdk/dist, which an
 * earlier npm ci built (possibly from older sources) and a build would empty under another test.
 */
export async function stageSdk(destination: string): Promise<{ staging: string; manifest: Manifest }> {
  const sdk = path.join(ROOT, 'packages/sdk');
  const manifest: Manifest = JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8'));
  // Checked before building: a tarball made otherwise than npm pack makes it proves nothing.
  expect(manifest.scripts.prepack, 'npm pack builds the package as this test does').toBe('node build.mjs');
  const staging = path.join(destination, 'sdk-package');
  mkdirSync(staging, { recursive: true });
  for (const file of ['package.json', ...manifest.files.filter((name) => name !== 'dist')])
    copyFileSync(path.join(sdk, file), path.join(staging, file));
  const build = await run(process.execPath, [path.join(sdk, 'build.mjs'), path.join(staging, 'dist')], sdk);
  if (build.status !== 0) throw new Error(`the SDK's build failed:\n${build.output}`);
  return { staging, manifest };
}

/**
 * The SDK freshly built (stageSdk) where a project can link it: its dependencies beside it are the
 * repository's (the versions it pins), found from its own folder as in an installed package.
 */
export async function builtSdk(destination: string): Promise<string> {
  const { staging, manifest } = await stageSdk(destination);
  mkdirSync(path.join(staging, 'node_modules'));
  for (const [name, version] of Object.entries(manifest.dependencies)) {
    const available = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    expect(available.version, `${name} in the repository`).toBe(version);
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(staging, 'node_modules', name));
  }
  return staging;
}

/** The tarball `npm pack` makes in packages/sdk (its prepack build: stageSdk). */
export async function packSdk(destination: string): Promise<Packed> {
  const { staging } = await stageSdk(destination);
  const pack = ['pack', staging, '--pack-destination', destination, '--json', '--ignore-scripts'];
  const outcome = await run('npm', pack, destination);
  if (outcome.status !== 0) throw new Error(`npm pack failed:\n${outcome.output}`);
  const [packed] = JSON.parse(outcome.stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(destination, packed!.filename), files: packed!.files.map((file) => file.path) };
}
