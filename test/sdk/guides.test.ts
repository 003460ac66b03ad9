import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { builtSdk } from './pack.ts';
import { blocksOf, guideFiles, hasCommand, projectDir, ROOT, RUNNABLE, runBlock } from './snippets.ts';

// CI provides go (.ci/run installs it); on a machine without it the Go blocks are skipped, not passed.
const GO = hasCommand('go');
const CI = Boolean(process.env.CI);

let server: ListeningWorld;
let receiver: WebhookReceiver;
const dirs: string[] = [];
// The guides' TypeScript imports @lastro/sdk as an installed package, so from a build, not the sources:
// one made now from the current sources, never whatever packages/sdk/dist an earlier npm ci left.
let sdk: string;
const started = Date.now();

beforeAll(async () => {
  const building = mkdtempSync(path.join(tmpdir(), 'lastro-guides-sdk-'));
  dirs.push(building);
  // The reader's own sandbox: a payout settles by itself after the default second, so a snippet that
  // forces an outcome right after creating one (sandbox.md) is not raced by the settlement on a busy box.
  const starting = startListeningWorld({ sandboxSettleMs: 1000 }).then((started) => {
    server = started;
  });
  [sdk] = await Promise.all([builtSdk(building), starting]);
  receiver = await WebhookReceiver.start();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What the guides' blocks read: a fresh workspace's key and session, and a captured, signed delivery. */
async function guideEnv(guide: string): Promise<Record<string, string>> {
  const ws = await server.workspace(`Guide ${guide}`);
  const env: Record<string, string> = {
    LASTRO_URL: server.baseUrl,
    LASTRO_KEY: ws.apiKey,
    LASTRO_WORKSPACE: ws.owner.workspaceId,
    LASTRO_SESSION: ws.owner.sessionToken,
    WEBHOOK_RECEIVER_URL: receiver.url(`/receiver/${guide}`),
  };
  const hookPath = `/captured/${guide}`;
  const endpoint = (
    await ws.api.post('/v1/sandbox/webhooks/endpoints', { url: receiver.url(hookPath) })
  ).json().data;
  await ws.fund('1234');
  const [delivery] = await receiver.waitFor(1, hookPath, 15_000);
  return {
    ...env,
    WEBHOOK_SECRET: endpoint.secret,
    WEBHOOK_ID: delivery!.id,
    WEBHOOK_TIMESTAMP: delivery!.timestamp,
    WEBHOOK_SIGNATURE: delivery!.signature,
    WEBHOOK_BODY: delivery!.body,
  };
}

describe('guides', () => {
  it('import @lastro/sdk built from the current sources for this run, not packages/sdk/dist', () => {
    const dir = projectDir(mkdtempSync(path.join(tmpdir(), 'lastro-guide-sdk-')), sdk);
    dirs.push(dir);
    const linked = realpathSync(path.join(dir, 'node_modules/@lastro/sdk'));
    expect(linked).not.toBe(realpathSync(path.join(ROOT, 'packages/sdk')));
    expect(statSync(path.join(linked, 'dist/esm/index.js')).mtimeMs).toBeGreaterThanOrEqual(started - 1000);
  });

  it('has every code block in a language the test runs, and few that it does not', () => {
    const blocks = guideFiles().flatMap(blocksOf);
    expect(blocks.length).toBeGreaterThan(20);
    const unknown = blocks.filter(
      (block) => block.run && !(RUNNABLE as readonly string[]).includes(block.language),
    );
    expect(unknown.map((block) => `${block.guide}:${block.line} \`${block.language}\``)).toEqual([]);
    const shownOnly = blocks.filter((block) => !block.run);
    expect(shownOnly.length).toBeLessThanOrEqual(6);
  });

  for (const guide of guideFiles()) {
    const blocks = blocksOf(guide).filter((block) => block.run);
    it.skipIf(blocks.length === 0)(`${guide}: every block runs`, { timeout: 600_000 }, async () => {
      const dir = projectDir(
        mkdtempSync(path.join(tmpdir(), `lastro-guide-${path.basename(guide, '.md')}-`)),
        sdk,
      );
      dirs.push(dir);
      const env = await guideEnv(guide);
      for (const block of blocks) {
        if (block.language === 'go' && !GO) {
          if (CI) throw new Error(`${guide}:${block.line}: go is not installed (CI installs golang-go)`);
          console.warn(`${guide}:${block.line}: go is not installed here; Go block skipped`);
          continue;
        }
        const outcome = await runBlock(block, dir, env);
        expect(outcome.code, `${guide}:${block.line} (${block.language}) failed:\n${outcome.output}`).toBe(0);
        // A verification snippet must also refuse a delivery that was altered on the way.
        if (block.code.includes('WEBHOOK_BODY')) {
          const tampered = { ...env, WEBHOOK_BODY: env.WEBHOOK_BODY!.replace('{', '{ ') };
          const refused = await runBlock(block, dir, tampered);
          expect(
            refused.code,
            `${guide}:${block.line} accepted an altered body:\n${refused.output}`,
          ).not.toBe(0);
        }
      }
    });
  }
});
