import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { builtSdk, packSdk, run } from './pack.ts';
import {
  type Block,
  blocksOf,
  guideFiles,
  hasCommand,
  projectDir,
  ROOT,
  RUNNABLE,
  runBlock,
} from './snippets.ts';

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

const QUICKSTART = 'quickstart.md';

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

  // The quick start is run as a newcomer runs it, below: not in the harness's prepared folder.
  for (const guide of guideFiles().filter((name) => name !== QUICKSTART)) {
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

/** The one block of the quick start whose code matches. */
function quickstartBlock(matches: (block: Block) => boolean): Block {
  const found = blocksOf(QUICKSTART).filter(matches);
  expect(found, 'one such block in the quick start').toHaveLength(1);
  return found[0]!;
}

describe('the quick start, as a newcomer runs it', () => {
  // A newcomer's machine: their own home, npm's cache kept (it only saves downloads).
  const newcomer = (home: string) => ({
    HOME: home,
    LASTRO_URL: server.baseUrl,
    npm_config_cache: path.join(homedir(), '.npm'),
  });

  it('TypeScript: the documented commands in an empty folder, then the pasted file with npx tsx', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'lastro-newcomer-'));
    dirs.push(home);
    const install = quickstartBlock((block) => block.code.includes('npm init -y'));
    const code = quickstartBlock((block) => block.language === 'ts');
    const start = quickstartBlock((block) => block.code.trim() === 'npx tsx quickstart.ts');
    // `npm pack` in packages/sdk would build into the repository's dist/: the same pack, made apart.
    const packed = await packSdk(home);
    const documented = /\/tmp\/(lastro-sdk-\S+\.tgz)/.exec(install.code)?.[1];
    expect(path.basename(packed.tarball), 'the tarball the guide names').toBe(documented);
    const commands = install.code
      .split('\n')
      .filter((line) => !line.includes('npm pack'))
      .join('\n')
      .replaceAll(`/tmp/${documented}`, packed.tarball);
    const installed = await run('bash', ['-euo', 'pipefail', '-c', commands], home, newcomer(home));
    expect(installed.status, installed.output).toBe(0);

    const folder = path.join(home, 'lastro-quickstart');
    expect(JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).type).toBe('module');
    writeFileSync(path.join(folder, 'quickstart.ts'), code.code);
    const ran = await run('bash', ['-euo', 'pipefail', '-c', start.code], folder, newcomer(home));
    expect(ran.status, ran.output).toBe(0);
    expect(ran.output).toMatch(/^cash-in \S+: completed R\$ 100,00$/m);
    // With an API key the payout goes to the settlement key, whatever pix_key said.
    expect(ran.output).toMatch(/^payout \S+: \S+ R\$ 25,00 to financeiro@ana\.com\.br$/m);
    expect(ran.output).toMatch(/^webhook verified: payment\.completed for payout \S+ \(completed\)$/m);
    expect(ran.output).toMatch(/^available: R\$ 74,00$/m);
  }, 400_000);

  it('curl: the README\'s "First call" as written, in bash, in an empty folder', async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## First call'));
    const code = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(code).toBeDefined();
    const home = mkdtempSync(path.join(tmpdir(), 'lastro-newcomer-curl-'));
    dirs.push(home);
    // What the variables hold afterwards, for the guides that read them.
    const exported = 'echo; echo "exported: $LASTRO_URL $LASTRO_SESSION $LASTRO_WORKSPACE $LASTRO_KEY"';
    const ran = await run('bash', ['-euo', 'pipefail', '-c', `${code}\n${exported}`], home, newcomer(home));
    expect(ran.status, ran.output).toBe(0);
    expect(ran.output).toContain('"action":"api_key.created"');
    expect(ran.output).toMatch(
      new RegExp(`^exported: ${server.baseUrl} lastro_sess_\\S+ [0-9a-f-]{36} lastro_test_sk_\\S+$`, 'm'),
    );
  }, 120_000);
});
