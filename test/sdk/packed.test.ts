/**
 * The SDK as an outside project installs it: the tarball of `npm pack` installed with npm into a
 * folder outside the repository (its dependencies from the npm cache, or the registry when the
 * cache lacks them), then used three ways against a started server: a TypeScript project built by
 * `tsc` with module NodeNext and strict checks (library files included), its code once as an ES
 * module (.mts) and once as CommonJS (.cts), and a plain JavaScript ES module run by node.
 * TypeScript is the repository's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import type { Workspace } from '../support/world.ts';
import { type Packed, packSdk, run } from './pack.ts';
import { ROOT } from './snippets.ts';

const project = mkdtempSync(path.join(tmpdir(), 'lastro-packed-'));
const API_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')).info.version;
let server: ListeningWorld;
let ws: Workspace;
let packed: Packed;

// Every call checks its types: a wrong path must not compile (@ts-expect-error fails when unused).
const TYPESCRIPT = `import {
  API_VERSION,
  type ErrorCode,
  Lastro,
  NotFoundError,
  type ResultOf,
  verifyWebhook,
  WebhookVerificationError,
} from '@lastro/sdk';
import { EVENT_TYPES } from '@lastro/sdk/generated';

const lastro = new Lastro({
  apiKey: process.env.LASTRO_KEY ?? '',
  workspaceId: process.env.LASTRO_WORKSPACE ?? '',
  baseUrl: process.env.LASTRO_URL ?? '',
});

export const typo = () =>
  // @ts-expect-error: the API has no such path
  lastro.get('/v1/{env}/balancez');

async function main(): Promise<void> {
  const balances = await lastro.get('/v1/{env}/balances', { params: { query: { currency: 'BRL' } } });
  console.log('available', balances.find((row) => row.kind === 'available')?.balance_minor);
  const charge: ResultOf<'/v1/{env}/pix/charges', 'post'> = await lastro.post('/v1/{env}/pix/charges', {
    body: { amount_minor: '1500', currency: 'BRL' },
  });
  console.log('charge', charge.kind, charge.status, charge.amount_minor);
  try {
    await lastro.get('/v1/{env}/payments/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const code: ErrorCode = error.code;
    console.log('refused', error.status, code);
  }
  try {
    verifyWebhook('whsec_c2VjcmV0', '{}', { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' });
  } catch (error) {
    console.log('webhook refused', error instanceof WebhookVerificationError);
  }
  console.log('api', API_VERSION, EVENT_TYPES.includes('payment.completed'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const JAVASCRIPT = `import { API_VERSION, Lastro, NotFoundError } from '@lastro/sdk';

const lastro = new Lastro({
  apiKey: process.env.LASTRO_KEY,
  workspaceId: process.env.LASTRO_WORKSPACE,
  baseUrl: process.env.LASTRO_URL,
});
const charge = await lastro.post('/v1/{env}/pix/charges', { body: { amount_minor: '1500', currency: 'BRL' } });
console.log('charge', charge.kind, charge.status, charge.amount_minor);
const refusal = await lastro
  .get('/v1/{env}/payments/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } })
  .catch((error) => error);
console.log('refused', refusal instanceof NotFoundError, refusal.code);
console.log('api', API_VERSION);
`;

beforeAll(async () => {
  const packing = packSdk(project);
  server = await startListeningWorld();
  ws = await server.workspace('Pacote Pagamentos', { fund: '10000' });
  packed = await packing;
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true }));
  const types = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@types/node/package.json'), 'utf8'));
  const install = await run(
    'npm',
    [
      'install',
      packed.tarball,
      `@types/node@${types.version}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    project,
  );
  expect(install.status, install.output).toBe(0);
}, 180_000);
afterAll(async () => {
  await server?.close();
  rmSync(project, { recursive: true, force: true });
});

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    outDir: 'dist',
    rootDir: 'src',
  },
  include: ['src'],
};

/** A folder of the project with its own package.json and these files. */
function subproject(name: string, files: Record<string, string>): string {
  const dir = path.join(project, name);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

const againstServer = (dir: string, file: string) =>
  run(process.execPath, [file], dir, {
    LASTRO_KEY: ws.apiKey,
    LASTRO_WORKSPACE: ws.owner.workspaceId,
    LASTRO_URL: server.baseUrl,
  });

it('packs the built JavaScript and declarations, not the TypeScript sources', () => {
  expect(packed.files).toEqual(
    expect.arrayContaining([
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/esm/schema.d.ts',
      'dist/esm/generated.js',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
    ]),
  );
  expect(packed.files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
});

it('builds with tsc (NodeNext, strict) as ES module and CommonJS, both running against the server', async () => {
  const dir = subproject('tsc', {
    'tsconfig.json': JSON.stringify(TSCONFIG),
    'src/main.mts': TYPESCRIPT,
    'src/main.cts': TYPESCRIPT,
  });
  const tsc = await run(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
    dir,
  );
  expect(tsc.status, tsc.output).toBe(0);
  expect(readFileSync(path.join(dir, 'dist/main.mjs'), 'utf8')).toContain("from '@lastro/sdk'");
  expect(readFileSync(path.join(dir, 'dist/main.cjs'), 'utf8')).toContain('require("@lastro/sdk")');

  for (const file of ['dist/main.mjs', 'dist/main.cjs']) {
    const outcome = await againstServer(dir, file);
    expect(outcome.status, `${file}: ${outcome.output}`).toBe(0);
    expect(outcome.output).toMatch(/^available \d+$/m);
    expect(outcome.output).toContain('charge pix_cash_in created 1500');
    expect(outcome.output).toContain('refused 404 not_found');
    expect(outcome.output).toContain('webhook refused true');
    expect(outcome.output).toContain(`api ${API_VERSION} true`);
  }
}, 150_000);

it('runs from a plain JavaScript ES module with node', async () => {
  const dir = subproject('plain-esm', { 'main.js': JAVASCRIPT });
  const outcome = await againstServer(dir, 'main.js');
  expect(outcome.status, outcome.output).toBe(0);
  expect(outcome.output).toContain('charge pix_cash_in created 1500');
  expect(outcome.output).toContain('refused true not_found');
  expect(outcome.output).toContain(`api ${API_VERSION}`);
}, 60_000);
