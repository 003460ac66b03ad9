/**
 * The real server as child processes, for crash tests: start `lastro serve` on one data directory (or
 * a scratch PostgreSQL database), SIGKILL it, start it again, call it over HTTP, and read its database
 * from the test while no server holds it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';
import type { Database } from '../../src/db/types.ts';
import { onRealPostgres } from './database.ts';
import { testServerUrl, withDatabase } from './database-url.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body of any route
  body: any;
  text: string;
}

export interface ServerHarness {
  base: string;
  /** Creates the scratch PostgreSQL database when the tests run on one; call once before start. */
  prepare(): Promise<void>;
  start(args: string[]): Started;
  waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean>;
  /** Waits until /health answers 200. */
  healthy(ms?: number): Promise<boolean>;
  call(
    method: string,
    url: string,
    token: string | null,
    workspaceId: string | null,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<CallResult>;
  withServerDb<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  /** Signs an owner up over HTTP and makes a key of `env` (turning production on for live). */
  owner(name: string, env?: 'sandbox' | 'live'): Promise<ServerOwner>;
  /** Kills what is left, removes the data directory and the scratch database. */
  cleanup(): Promise<void>;
}

export interface ServerOwner {
  session: string;
  workspaceId: string;
  partyId: string;
  /** Calls the server with the owner's API key. */
  api(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<CallResult>;
}

/** `name` keeps two crash test files apart (ports, directories, databases). */
export function serverHarness(
  name: string,
  portOffset: number,
  extraEnv: Record<string, string> = {},
): ServerHarness {
  const dataDir = mkdtempSync(path.join(tmpdir(), `lastro-${name}-`));
  // Below Linux's ephemeral range (32768–60999), where any outgoing connection can take a port
  // between the choice and the child's listen (EADDRINUSE under a soak's load), and clear of the
  // local services' ports (RabbitMQ's 25672).
  const port = 12_000 + portOffset + (process.pid % 1000);
  const base = `http://127.0.0.1:${port}`;
  const children: ChildProcess[] = [];
  const scratchDb = `lastro_${name}_${inject('runId')}_${process.pid}`;
  const masterKey = randomBytes(32).toString('hex');
  let databaseUrl = '';

  const env = () => ({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    TEST_DATABASE_URL: '',
    SANDBOX_SETTLE_MS: '200',
    MASTER_KEY: masterKey,
    RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  });

  const harness: ServerHarness = {
    base,
    async prepare() {
      if (!onRealPostgres()) return;
      const admin = new pg.Client({ connectionString: testServerUrl() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${scratchDb}`);
      await admin.end();
      databaseUrl = withDatabase(testServerUrl()!, scratchDb);
    },
    start(args) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
        cwd: root,
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      return { child, output: () => output, exited };
    },
    async waitFor(check, ms) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        if (await check().catch(() => false)) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    },
    healthy: (ms = 120_000) =>
      harness.waitFor(async () => (await fetch(`${base}/health`)).status === 200, ms),
    async call(method, url, token, workspaceId, body, headers = {}) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
    },
    async owner(name, env = 'sandbox') {
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const signup = await harness.call('POST', '/v1/auth/signup', null, null, {
        email: `${slug}-${process.pid}@example.com`,
        password: 'correct horse battery staple',
        workspace_name: name,
      });
      if (signup.status !== 200) throw new Error(`signup: ${signup.text}`);
      const session: string = signup.body.data.session_token;
      const workspaceId: string = signup.body.data.workspace.id;
      if (env === 'live') {
        const on = await harness.call('PATCH', '/v1/live/workspace', session, workspaceId, {
          production_enabled: true,
        });
        if (on.status !== 200) throw new Error(`production: ${on.text}`);
      }
      const key = await harness.call('POST', `/v1/${env}/api-keys`, session, workspaceId, { name: slug });
      if (key.status !== 200) throw new Error(`api key: ${key.text}`);
      return {
        session,
        workspaceId,
        partyId: signup.body.data.workspace.default_party_id,
        api: (method, url, body, headers) =>
          harness.call(method, url, key.body.data.secret, workspaceId, body, headers),
      };
    },
    async withServerDb(fn) {
      const db = await openDatabase(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }));
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    },
    async cleanup() {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) {
        const admin = new pg.Client({ connectionString: testServerUrl() });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${scratchDb} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
  return harness;
}
