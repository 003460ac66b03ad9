// Builds dist/esm (ES modules with .d.ts, type-checked by tsc) and dist/cjs (the same code as
// CommonJS for require()), with the generated schema types beside each; `npm pack` runs it.
//
//   node build.mjs [out-dir]    # default packages/sdk/dist; the tests build elsewhere, so a
//                               # build never pulls dist/ from under another test reading it
//
// TypeScript is the repository's: the package is built there, never by whoever installs it. An install
// without devDependencies (npm ci --omit=dev) has none: it warns instead of failing the install.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = import.meta.dirname;
const require = createRequire(import.meta.url);
let ts;
try {
  ts = require('typescript');
} catch {
  console.warn('sdk: typescript is not installed (devDependencies omitted?); packages/sdk/dist not built');
  process.exit(0);
}
const src = path.join(here, 'src');
const dist = path.resolve(process.argv[2] ?? path.join(here, 'dist'));
const esm = path.join(dist, 'esm');
const cjs = path.join(dist, 'cjs');

rmSync(dist, { recursive: true, force: true });
const tscArgs = [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', esm];
const tsc = spawnSync(process.execPath, tscArgs, { cwd: here, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// The CommonJS copy needs no second type-check: its declarations are the ES build's, read as CommonJS
// because of the package.json beside them.
mkdirSync(cjs, { recursive: true });
for (const name of readdirSync(src)) {
  if (name.endsWith('.d.ts') || !name.endsWith('.ts')) continue;
  const { outputText } = ts.transpileModule(readFileSync(path.join(src, name), 'utf8'), {
    fileName: name,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  writeFileSync(path.join(cjs, name.replace(/\.ts$/, '.js')), outputText);
}
for (const name of readdirSync(esm).filter((file) => file.endsWith('.d.ts')))
  copyFileSync(path.join(esm, name), path.join(cjs, name));
for (const dir of [esm, cjs]) copyFileSync(path.join(src, 'schema.d.ts'), path.join(dir, 'schema.d.ts'));
writeFileSync(path.join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
