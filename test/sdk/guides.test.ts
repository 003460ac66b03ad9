import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { blocksOf, guideFiles, hasCommand, projectDir, ROOT, RUNNABLE, runBlock } from './snippets.ts';

// CI provides go (.ci/run installs it); on a machine without it the Go blocks are skipped, not passed.
const GO = hasCommand('go');
const CI = Boolean(process.env.CI);

let server: ListeningWorld;
let receiver: WebhookReceiver;
const dirs: string[] = [];

beforeAll(async () => {
  // The reader's own sandbox: a payout settles by itself after the default second, so a snippet that
  // forces an outcome right after creating one (sandbox.md) is not raced by the settlement on a busy box.
  server = await startListeningWorld({ sandboxSettleMs: 1000 });
  receiver = await WebhookReceiver.start();
});
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
        path.join(ROOT, 'packages/sdk'),
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
