/**
 * The Dockerfile's build stage typechecks src, test and bench, but once copied
 * neither packages/sdk/src nor scripts, which test/sdk, test/fuzz and test/platform import: `tsc
 * --noEmit` failed and `docker build` with it. Every relative import of a TypeScript file the build
 * stage copies must resolve to a file it copies too.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { copiedFromContext, dockerIgnored, dockerStages, ROOT } from '../support/dockerfile.ts';

// Import and export statements at the start of a line (a multi-line one ends with `} from '…'`).
const IMPORT = /^(?:import|export|\})[^'\n]*'(\.{1,2}\/[^']+)';?$/gm;

function tsFiles(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!existsSync(full) || dockerIgnored(relative)) return [];
  if (statSync(full).isFile()) return relative.endsWith('.ts') ? [relative] : [];
  return readdirSync(full).flatMap((name) => tsFiles(path.join(relative, name)));
}

it('the build stage copies everything its typecheck imports', () => {
  const build = dockerStages().find((stage) => /\bnpx tsc\b/.test(stage.map((i) => i.args).join('\n')));
  expect(build, 'a stage runs tsc').toBeDefined();
  const copied = copiedFromContext(build!);
  const inImage = (file: string) =>
    !dockerIgnored(file) && copied.some((source) => file === source || file.startsWith(`${source}/`));
  const missing = new Set<string>();
  for (const file of copied.flatMap(tsFiles))
    for (const [, specifier] of readFileSync(path.join(ROOT, file), 'utf8').matchAll(IMPORT)) {
      const target = path.normalize(path.join(path.dirname(file), specifier!));
      if (!inImage(target)) missing.add(`${file} → ${target}`);
    }
  expect([...missing]).toEqual([]);
});
