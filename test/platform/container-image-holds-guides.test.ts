/**
 * The guides route reads docs/guides when the app is built, but the image
 * had no docs (.dockerignore left docs out, the runtime stage copied src, bin and package.json):
 * `serve` in the container died at start with ENOENT. The files the app reads outside src must be
 * in the runtime stage, from the context or from a stage that took them from it.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { copiedFromContext, dockerIgnored, dockerStages, ROOT } from '../support/dockerfile.ts';

/** The context paths the runtime stage ends up with (under /app). */
function runtimePaths(): string[] {
  const stages = dockerStages();
  const runtime = stages.at(-1)!;
  const fromStages = runtime
    .filter((instruction) => instruction.op === 'COPY' && /--from=/.test(instruction.args))
    .flatMap((instruction) => {
      const stageName = /--from=(\S+)/.exec(instruction.args)![1];
      const source = instruction.args
        .split(/\s+/)
        .filter((part) => !part.startsWith('--'))[0]!
        .replace(/^\/app\//, '');
      const stage = stages.find((candidate) => candidate[0]!.args.endsWith(` AS ${stageName}`))!;
      return copiedFromContext(stage).filter(
        (copied) => copied === source || copied.startsWith(`${source}/`),
      );
    });
  return [...copiedFromContext(runtime), ...fromStages];
}

it('the runtime image holds the guides the app reads at start', () => {
  const needed = readdirSync(path.join(ROOT, 'docs/guides')).map((name) => `docs/guides/${name}`);
  const paths = runtimePaths();
  const missing = needed.filter(
    (file) => dockerIgnored(file) || !paths.some((p) => file === p || file.startsWith(`${p}/`)),
  );
  expect(missing).toEqual([]);
  // And what the build stage turns into the image is there too.
  expect(paths).toEqual(expect.arrayContaining(['src', 'bin', 'package.json']));
});
