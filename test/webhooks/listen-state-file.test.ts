/**
 * `lastro listen --state-file` resumes after the event it names. A file that is there but names no
 * event (cut short, edited, another program's) must stop the listener, not send it on from "now":
 * every event since the last one forwarded would be skipped without a word.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { runCli, stop } from './listen-helpers.ts';

let world: ListeningWorld;

beforeAll(async () => {
  world = await startListeningWorld();
}, 60_000);
afterAll(() => world?.close());

it('refuses a state file that names no event instead of starting from now', async () => {
  const ws = await world.workspace('Listen Bad State');
  const state = path.join(mkdtempSync(path.join(tmpdir(), 'lastro-listen-state-')), 'state');
  for (const content of ['', 'not an event id\n']) {
    writeFileSync(state, content);
    const cli = runCli(world, ws, ['listen', '--forward-to', 'http://127.0.0.1:1/', '--state-file', state]);
    const ended = await Promise.race([
      cli.exited,
      new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 20_000)),
    ]);
    await stop(cli);
    expect(ended, cli.output()).toBe(2);
    expect(cli.output()).toContain(`--state-file ${state} holds no event id`);
    expect(readFileSync(state, 'utf8')).toBe(content);
  }
}, 90_000);
