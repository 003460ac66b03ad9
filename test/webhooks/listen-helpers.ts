/** `lastro listen` and `lastro trigger` run from the SDK's sources as child processes, against a listening world. */
import path from 'node:path';
import { type Captured, spawnCaptured } from '../support/child.ts';
import type { ListeningWorld } from '../support/listening-world.ts';
import type { Workspace } from '../support/world.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'packages/sdk/src/cli/main.ts');

/** The CLI with `args`, configured the way the guides configure it: LASTRO_URL, LASTRO_KEY, LASTRO_WORKSPACE. */
export function runCli(world: ListeningWorld, ws: Workspace, args: string[]): Captured {
  return spawnCaptured(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      LASTRO_URL: world.baseUrl,
      LASTRO_KEY: ws.apiKey,
      LASTRO_WORKSPACE: ws.owner.workspaceId,
    },
  });
}

/** Waits (bounded) until the output matches `pattern`; returns the match. */
export async function waitForOutput(
  cli: Captured,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(cli.output());
    if (match) return match;
    if (Date.now() > deadline || cli.child.exitCode !== null)
      throw new Error(`no ${pattern} in the CLI's output:\n${cli.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts `lastro listen` and waits until it is ready; returns it with its signing secret. */
export async function startListener(world: ListeningWorld, ws: Workspace, args: string[]) {
  const cli = runCli(world, ws, ['listen', ...args]);
  const [, secret] = await waitForOutput(cli, /^Signing secret: (whsec_\S+)$/m);
  await waitForOutput(cli, /^Starting after: /m);
  return { cli, secret: secret! };
}

/** Kills a listener still running and waits for it to end. */
export async function stop(cli: Captured): Promise<void> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  await cli.exited;
}
