// Builds dist/esm (ES modules with .d.ts, type-checked by tsc) and dist/cjs (the same code as
// CommonJS for require()), with the generated schema types beside each; `npm pack` runs it.
//
//   node build.mjs [out-dir] [--if-typescript]
//
// out-dir defaults to packages/sdk/dist; the tests build elsewhere, so a build never pulls dist/
// from under another test reading it. The build is written beside out-dir and moved into place only
// once complete, so a failed build leaves the previous one (or none), never half of one.
//
// TypeScript is the repository's: the package is built there, never by whoever installs it. An install
// without devDependencies (npm ci --omit=dev) has none, so the root `prepare` passes --if-typescript
// to warn instead of failing the install; anything else (npm pack above all) must not succeed
// without a fresh build.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = import.meta.dirname;
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const optional = args.includes('--if-typescript');
const dist = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? path.join(here, 'dist'));

function fail(message) {
  console.error(`sdk: ${message}`);
  process.exit(1);
}

let ts;
try {
  ts = require('typescript');
} catch {
  if (!optional) fail('typescript is not installed: run npm ci in the repository first; nothing built');
  console.warn('sdk: typescript is not installed (devDependencies omitted?); packages/sdk/dist not built');
  process.exit(0);
}

/** tsconfig.build.json as tsc reads it: its options and its files (src, every folder). */
function buildConfig() {
  const file = path.join(here, 'tsconfig.build.json');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) fail(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, here);
  if (parsed.errors.length > 0)
    fail(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
  return parsed;
}

/**
 * The CommonJS copy needs no second type-check: tsc has checked the same files with isolatedModules,
 * which refuses whatever a file-by-file transpile would compile differently. Its declarations are
 * the ES build's, read as CommonJS because of the package.json beside them.
 */
function writeCommonJs(config, esm, cjs) {
  const src = config.options.rootDir;
  for (const file of config.fileNames.filter((name) => !name.endsWith('.d.ts'))) {
    const relative = path.relative(src, file);
    const { outputText, diagnostics } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: {
        ...config.options,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        esModuleInterop: true,
        declaration: false,
      },
    });
    if (diagnostics?.length)
      fail(`${relative}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`);
    const out = path.join(cjs, relative.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  for (const name of readdirSync(esm, { recursive: true }).filter((file) => file.endsWith('.d.ts'))) {
    mkdirSync(path.dirname(path.join(cjs, name)), { recursive: true });
    copyFileSync(path.join(esm, name), path.join(cjs, name));
  }
  writeFileSync(path.join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
}

const config = buildConfig();
const staging = `${dist}.building-${process.pid}`;
process.on('exit', () => rmSync(staging, { recursive: true, force: true }));
rmSync(staging, { recursive: true, force: true });
const esm = path.join(staging, 'esm');
const cjs = path.join(staging, 'cjs');

const tscArgs = [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', esm];
const tsc = spawnSync(process.execPath, tscArgs, { cwd: here, stdio: 'inherit' });
if (tsc.status !== 0) fail('tsc failed; dist left as it was');
writeCommonJs(config, esm, cjs);
for (const dir of [esm, cjs]) copyFileSync(path.join(here, 'src/schema.d.ts'), path.join(dir, 'schema.d.ts'));
for (const entry of ['esm/index.js', 'esm/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts'])
  if (!existsSync(path.join(staging, entry))) fail(`the build has no ${entry}; dist left as it was`);

rmSync(dist, { recursive: true, force: true });
renameSync(staging, dist);
