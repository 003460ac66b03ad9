/**
 * The SDK as an outside project gets it: `npm pack` of the workspace package, unpacked into a
 * project outside the repository, and the quick start guide's code run there with tsx against a
 * started server (signup → key → cash-in → payout → webhook verified). The test must not use the
 * network, so the package's two dependencies are linked from the repository's node_modules (the
 * versions the package pins) instead of downloaded.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { packSdk } from './pack.ts';
import { blocksOf, ROOT, runBlock } from './snippets.ts';

let server: ListeningWorld;
let project: string;

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'lastro-outside-'));
  server = await startListeningWorld();
});
afterAll(async () => {
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

it('installs from npm pack and runs the quick start against the server', { timeout: 180_000 }, async () => {
  const packed = await packSdk(project);
  expect(packed.files).toEqual(
    expect.arrayContaining(['README.md', 'package.json', 'dist/esm/index.js', 'dist/esm/index.d.ts']),
  );
  // The guide's install steps name the tarball npm pack makes (its name carries the version).
  const steps = blocksOf('quickstart.md').filter((block) => block.language === 'sh' && !block.run);
  const tarball = path.basename(packed.tarball);
  expect(steps.map((block) => block.code).join('')).toContain('npm pack --pack-destination /tmp');
  expect(steps.map((block) => block.code).join('')).toContain(`npm install /tmp/${tarball} tsx`);

  const installed = path.join(project, 'node_modules/@lastro/sdk');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', packed.tarball, '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
  for (const [name, version] of Object.entries(manifest.dependencies as Record<string, string>)) {
    const available = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    expect(available.version, `${name} in the repository`).toBe(version);
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(project, 'node_modules', name));
  }
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'shop', private: true, type: 'module' }),
  );
  writeFileSync(path.join(project, 'state.sh'), '');

  const [quickstart] = blocksOf('quickstart.md').filter((block) => block.run && block.language === 'ts');
  const outcome = await runBlock(quickstart!, project, { LASTRO_URL: server.baseUrl });
  expect(outcome.code, outcome.output).toBe(0);
  expect(outcome.output).toMatch(/cash-in \S+: completed R\$ 100,00/);
  expect(outcome.output).toMatch(/webhook verified: payment.completed for payout (\S+) \(completed\)/);
  expect(outcome.output).toContain('available: R$ 74,00');
});
