/**
 * The SDK as an outside project installs it: the tarball of `npm pack` installed with npm into a
 * folder outside the repository (its dependencies from the npm cache, or the registry when the
 * cache lacks them), then used three ways against a started server: a TypeScript project built by
 * `tsc` with module NodeNext and strict checks (library files included), its code once as an ES
 * module (.mts) and once as CommonJS (.cts), and a plain JavaScript ES module run by node.
 * TypeScript is the repository's.
 */
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../support/database.ts';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import type { Workspace } from '../support/world.ts';
import { type Packed, packSdk, run } from './pack.ts';
import { ROOT } from './snippets.ts';

let project: string;
const API_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')).info.version;
let server: ListeningWorld;
let ws: Workspace;
let packed: Packed;

// Every call checks its types: a wrong path must not compile (@ts-expect-error fails when unused).
// `resolve` is the file's own way to ask which file the package's name loads, printed so that the test
// sees which build each format gets (Node ≥ 20.19 could also require the ES build).
const typescript = (resolve: string) => `import {
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
  console.log('resolved', ${resolve});
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
console.log('resolved', import.meta.resolve('@lastro/sdk'));
`;

// What is tested is the package, not the database behind the server: it runs once, in the PGlite stage.
describe.skipIf(onRealPostgres())('installed from its tarball', () => {
  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'lastro-packed-'));
    const starting = startListeningWorld().then(async (started) => {
      server = started;
      ws = await server.workspace('Pacote Pagamentos', { fund: '10000' });
    });
    [packed] = await Promise.all([packSdk(project), starting]);
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
    if (project) rmSync(project, { recursive: true, force: true });
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
      'src/main.mts': typescript("import.meta.resolve('@lastro/sdk')"),
      'src/main.cts': typescript("require.resolve('@lastro/sdk')"),
    });
    const tsc = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      dir,
    );
    expect(tsc.status, tsc.output).toBe(0);
    expect(readFileSync(path.join(dir, 'dist/main.mjs'), 'utf8')).toContain("from '@lastro/sdk'");
    expect(readFileSync(path.join(dir, 'dist/main.cjs'), 'utf8')).toContain('require("@lastro/sdk")');

    const builds = { 'dist/main.mjs': 'dist/esm/index.js', 'dist/main.cjs': 'dist/cjs/index.js' };
    for (const [file, build] of Object.entries(builds)) {
      const outcome = await againstServer(dir, file);
      expect(outcome.status, `${file}: ${outcome.output}`).toBe(0);
      expect(outcome.output).toMatch(/^available \d+$/m);
      expect(outcome.output).toContain('charge pix_cash_in created 1500');
      expect(outcome.output).toContain('refused 404 not_found');
      expect(outcome.output).toContain('webhook refused true');
      expect(outcome.output).toContain(`api ${API_VERSION} true`);
      expect(outcome.output).toMatch(new RegExp(`^resolved \\S+/node_modules/@lastro/sdk/${build}$`, 'm'));
    }
  }, 150_000);

  it('runs from a plain JavaScript ES module with node', async () => {
    const dir = subproject('plain-esm', { 'main.js': JAVASCRIPT });
    const outcome = await againstServer(dir, 'main.js');
    expect(outcome.status, outcome.output).toBe(0);
    expect(outcome.output).toContain('charge pix_cash_in created 1500');
    expect(outcome.output).toContain('refused true not_found');
    expect(outcome.output).toContain(`api ${API_VERSION}`);
    expect(outcome.output).toMatch(/^resolved file:\S+\/node_modules\/@lastro\/sdk\/dist\/esm\/index\.js$/m);
  }, 60_000);
});

/**
 * build.mjs on a copy of the package, with a file in a subfolder that the index exports (a const
 * enum's value); with `modules`, the copy's node_modules is the repository's (TypeScript there).
 */
function packageCopy(modules: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lastro-sdk-build-'));
  copies.push(dir);
  const sdk = path.join(ROOT, 'packages/sdk');
  for (const file of ['package.json', 'build.mjs', 'tsconfig.build.json'])
    cpSync(path.join(sdk, file), path.join(dir, file));
  cpSync(path.join(sdk, 'src'), path.join(dir, 'src'), { recursive: true });
  mkdirSync(path.join(dir, 'src/internal'));
  writeFileSync(path.join(dir, 'src/internal/level.ts'), 'export const enum Level {\n  High = 2,\n}\n');
  writeFileSync(
    path.join(dir, 'src/internal/use.ts'),
    "import { Level } from './level.js';\n\nexport const high: number = Level.High;\n",
  );
  appendFileSync(path.join(dir, 'src/index.ts'), "export { high } from './internal/use.js';\n");
  if (modules) symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('build.mjs', () => {
  it('refuses to build without TypeScript unless told the build is optional (the root prepare)', async () => {
    const dir = packageCopy(false);
    mkdirSync(path.join(dir, 'dist/esm'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/esm/index.js'), '// an old build\n');
    const refused = await run(process.execPath, ['build.mjs'], dir);
    expect(refused.status, refused.output).toBe(1);
    expect(refused.output).toContain('typescript is not installed');
    const optional = await run(process.execPath, ['build.mjs', '--if-typescript'], dir);
    expect(optional.status, optional.output).toBe(0);
  });

  it('builds every folder of src as ES module and CommonJS, both loading', async () => {
    const dir = packageCopy(true);
    const build = await run(process.execPath, ['build.mjs'], dir);
    expect(build.status, build.output).toBe(0);
    for (const format of ['esm', 'cjs'])
      expect(existsSync(path.join(dir, `dist/${format}/internal/use.js`)), format).toBe(true);
    const script = `const cjs = require('./dist/cjs/index.js');
import('./dist/esm/index.js').then((esm) => console.log('high', cjs.high, esm.high));`;
    const loaded = await run(process.execPath, ['--input-type=commonjs', '-e', script], dir);
    expect(loaded.status, loaded.output).toBe(0);
    expect(loaded.stdout).toBe('high 2 2\n');
  }, 60_000);

  it('leaves the previous dist whole when the build fails', async () => {
    const dir = packageCopy(true);
    mkdirSync(path.join(dir, 'dist/esm'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/esm/index.js'), '// the previous build\n');
    appendFileSync(path.join(dir, 'src/internal/use.ts'), "export const broken: number = 'x';\n");
    const build = await run(process.execPath, ['build.mjs'], dir);
    expect(build.status, build.output).not.toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('dist'))).toEqual(['dist']);
    expect(readdirSync(path.join(dir, 'dist'))).toEqual(['esm']);
    expect(readFileSync(path.join(dir, 'dist/esm/index.js'), 'utf8')).toBe('// the previous build\n');
  }, 60_000);
});
