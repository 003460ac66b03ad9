/**
 * The container without Docker (none runs here, and hadolint does not install from the registries):
 * the Dockerfile is held to its rules by parsing it, and the exact command it starts, with the
 * environment compose.yaml gives it, runs against a scratch database until /ready answers.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { spawnCaptured } from '../support/child.ts';
import { onRealPostgres } from '../support/database.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';
import { dockerStages } from '../support/dockerfile.ts';

const root = path.resolve(import.meta.dirname, '../..');

const execForm = (args: string): string[] => JSON.parse(args) as string[];

interface Compose {
  services: Record<string, { image?: string; command?: string[]; environment?: Record<string, string> }>;
}

/** compose.yaml as `docker compose` reads it, with ${NAME}, ${NAME:-default} and ${NAME:?error} filled from `vars`. */
const compose = (vars: Record<string, string> = {}) =>
  parse(
    readFileSync(path.join(root, 'compose.yaml'), 'utf8').replace(
      /\$\{(\w+)(?::([?-])([^}]*))?\}/g,
      (_, name: string, mode: string | undefined, rest: string) => {
        if (vars[name] !== undefined) return vars[name];
        if (mode === '-') return rest;
        throw new Error(`compose.yaml needs ${name}: ${rest}`);
      },
    ),
    { merge: true },
  ) as Compose;

/** What the operator exports before `docker compose up`. */
const OPERATOR_ENV = { MASTER_KEY: randomBytes(32).toString('hex') };

describe('Dockerfile and compose.yaml', () => {
  it('follow the rules: pinned images, dev dependencies left out, non-root, health check, node as PID 1', () => {
    const stages = dockerStages();
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const images = [
      ...stages.map((stage) => stage[0]!.args.split(/\s+/)[0]!),
      ...Object.values(compose(OPERATOR_ENV).services).flatMap((service) =>
        service.image ? [service.image] : [],
      ),
    ].filter((image) => !stages.some((stage) => stage[0]!.args.endsWith(` AS ${image}`)));
    for (const image of images) {
      expect(image, `${image} must name a version`).toMatch(/:[^:]+$/);
      expect(image, `${image} must not use latest`).not.toMatch(/:latest$/);
    }
    const runtime = stages.at(-1)!;
    const of = (op: string) => runtime.filter((instruction) => instruction.op === op);
    const user = of('USER').at(-1)?.args;
    expect(user, 'the runtime stage runs as a named non-root user').toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    expect(of('HEALTHCHECK').at(-1)?.args).toMatch(/\/health/);
    // The node_modules the runtime gets come from a stage that installed without dev dependencies.
    const copied = of('COPY').find((instruction) => /\bnode_modules\b/.test(instruction.args));
    const from = copied?.args.match(/--from=(\S+)/)?.[1];
    const source = stages.find((stage) => stage[0]!.args.endsWith(` AS ${from}`));
    const install = source?.find(
      (instruction) => instruction.op === 'RUN' && /\bnpm ci\b/.test(instruction.args),
    );
    expect(install?.args).toMatch(/--omit=dev/);
    expect(install?.args).toMatch(/--ignore-scripts/);
    expect(
      runtime.some(
        (instruction) =>
          instruction.op === 'RUN' && /\bnpm (ci|install)\b(?!.*--omit=dev)/.test(instruction.args),
      ),
    ).toBe(false);
    // Exec form with node first: SIGTERM goes straight to the service.
    expect(execForm(of('ENTRYPOINT').at(-1)!.args)[0]).toBe('node');
    expect(of('CMD').at(-1)!.args.trim().startsWith('[')).toBe(true);
    expect(of('ENV').some((instruction) => /NODE_ENV=production/.test(instruction.args))).toBe(true);
  });

  it('starts V8 with the young generation every other way of starting the server uses', () => {
    const flag = '--max-semi-space-size=32';
    const imageEnv = dockerStages()
      .at(-1)!
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args);
    expect(imageEnv).toContain(`NODE_OPTIONS=${flag}`);
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    for (const name of ['start', 'worker', 'bench']) expect(scripts[name]).toContain(flag);
    expect(readFileSync('bin/lastro', 'utf8')).toContain(`NODE_OPTIONS="${flag}`);
    // What the soak and the processes bench start is the server too.
    for (const file of ['scripts/soak/processes.ts', 'bench/parts/processes.ts'])
      expect(readFileSync(file, 'utf8')).toContain(`'${flag}', '--import', 'tsx', 'src/main.ts'`);
  });

  it('compose runs the migration, the API without workers, and a separate worker on one key', () => {
    const { services } = compose(OPERATOR_ENV);
    expect(services.migrate?.command).toEqual(['migrate']);
    expect(services.api?.command).toEqual(['serve', '--no-workers']);
    expect(services.worker?.command).toEqual(['worker']);
    expect(services.api?.environment?.MASTER_KEY).toBe(services.worker?.environment?.MASTER_KEY);
    expect(services.api?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
  });
});

/** What `docker run` would start for a compose service: the image's entrypoint, its command, its env. */
function containerProcess(service: string, overrides: Record<string, string | undefined>) {
  const stages = dockerStages();
  const runtime = stages.at(-1)!;
  const entrypoint = execForm(runtime.filter((i) => i.op === 'ENTRYPOINT').at(-1)!.args);
  const imageEnv: Record<string, string> = {};
  for (const instruction of runtime.filter((i) => i.op === 'ENV'))
    for (const [, name, value] of instruction.args.matchAll(/(\w+)=(\S+)/g)) imageEnv[name!] = value!;
  const spec = compose(OPERATOR_ENV).services[service]!;
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    ...imageEnv,
    ...spec.environment,
    ...overrides,
  };
  return { argv: [...entrypoint, ...(spec.command ?? [])], env };
}

/** Whether something answers on a local TCP port. */
const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
    socket.setTimeout(1000, () => resolve(socket.destroy() && false));
  });

describe('the image command, outside Docker', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lastro-container-'));
  const scratch = `lastro_container_${process.pid}_${Date.now()}`;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    if (onRealPostgres()) {
      const admin = new pg.Client({ connectionString: testServerUrl() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.end();
    }
  });

  function run(service: string, overrides: Record<string, string | undefined>) {
    const { argv, env } = containerProcess(service, overrides);
    const started = spawnCaptured(argv[0]!, argv.slice(1), {
      cwd: root,
      env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)),
    });
    const { child, output } = started;
    children.push(child);
    /** The first JSON log line with `msg`, once it is written. */
    const line = async (msg: string, ms = 150_000) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const found = output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((record) => record.msg === msg);
        if (found) return found;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no "${msg}" line; output:\n${output()}`);
    };
    return { ...started, line };
  }

  it('migrates, serves /ready from the API and from the worker, and stops cleanly on SIGTERM', async () => {
    // The compose hosts (postgres, redis) are this machine's; the ports are free ones; the data
    // directory a temporary one (the image's /data does not exist here).
    const overrides: Record<string, string | undefined> = {
      DATABASE_URL: onRealPostgres() ? withDatabase(testServerUrl()!, scratch) : undefined,
      REDIS_URL: (await answers(6379)) ? 'redis://127.0.0.1:6379' : undefined,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
    };
    const migrate = run('migrate', overrides);
    expect(await migrate.exited, migrate.output()).toBe(0);

    const api = run('api', overrides);
    const apiMetrics = Number((await api.line('lastro is running')).metrics_port);
    const apiPort = Number(api.output().match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/)?.[1]);
    const ready = await fetch(`http://127.0.0.1:${apiPort}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      data: { status: 'ready', checks: { database: 'ok', migrations: 'ok', workers: 'not_running' } },
    });
    expect((await fetch(`http://127.0.0.1:${apiMetrics}/health`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${apiMetrics}/metrics`)).text()).toContain(
      'lastro_http_request_duration_seconds_count{method="GET",route="/ready",status="200"} 1',
    );
    // Production logs are JSON lines whatever the terminal.
    expect(
      api
        .output()
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('{')),
    ).toBe(true);
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);

    const worker = run('worker', overrides);
    const workerMetrics = Number((await worker.line('lastro is running')).metrics_port);
    const workerReady = await fetch(`http://127.0.0.1:${workerMetrics}/ready`);
    expect(workerReady.status).toBe(200);
    expect(((await workerReady.json()) as { data: { checks: unknown } }).data.checks).toEqual({
      database: 'ok',
      migrations: 'ok',
      workers: 'ok',
    });
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 400_000);
});
