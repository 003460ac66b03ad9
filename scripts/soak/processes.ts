/** The service as two child processes (API and worker) that the soak SIGKILLs and restarts. */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { violation } from './client.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface Service {
  base: string;
  start(which: 'api' | 'worker'): void;
  /** SIGKILLs it; false when it was not running (exited, or between two starts). */
  kill(which: 'api' | 'worker'): Promise<boolean>;
  /** Runs `lastro <args>` to its end: exit code and standard output. */
  run(args: string[]): Promise<{ code: number | null; stdout: string }>;
  stopAll(): Promise<void>;
  /** The last lines either process wrote (for a failure report). */
  tail(): string;
}

/** What a start that met the database stopped, starting or shutting down prints. */
const DATABASE_DOWN =
  /ECONNREFUSED|ECONNRESET|connect ENOENT|Connection terminated|57P01|57P03|database system is (starting up|shutting down)|database_unavailable/;

export function service(env: Record<string, string>, port: number): Service {
  const children = new Map<'api' | 'worker', ChildProcess>();
  let log = '';
  let startAgain = 20;
  // The API and the worker run side by side: each takes any free metrics port.
  const fullEnv = { ...process.env, METRICS_PORT: '0', ...env, PORT: String(port), HOST: '127.0.0.1' };
  const spawnLastro = (args: string[]) =>
    // V8 as every other start of the server runs it (docs/scaling.md).
    spawn(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts', ...args], {
      cwd: root,
      env: fullEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  // SOAK_SERVICE_LOG=FILE keeps everything the children print (a failure's request id leads there).
  const logFile = process.env.SOAK_SERVICE_LOG;
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
    if (logFile) appendFileSync(logFile, chunk);
  };
  const kill = async (which: 'api' | 'worker') => {
    const child = children.get(which);
    children.delete(which);
    if (!child || child.exitCode !== null || child.signalCode !== null) return false;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return true;
  };
  return {
    base: `http://127.0.0.1:${port}`,
    start(which) {
      const running = children.get(which);
      if (running && running.exitCode === null && running.signalCode === null) return;
      const child = spawnLastro(which === 'api' ? ['serve', '--no-workers'] : ['worker']);
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      let output = '';
      child.stderr!.on('data', (chunk) => (output = (output + chunk.toString()).slice(-4000)));
      // A process that dies of anything but the soak's own SIGKILL is a finding, except a start that
      // met the database down (the soak stops it): refused to start, it is started again, as a
      // supervisor would.
      child.on('exit', (code, signal) => {
        if (signal === 'SIGKILL') return;
        if (code === 1 && /failed to start/.test(output) && DATABASE_DOWN.test(output) && startAgain-- > 0) {
          children.delete(which);
          setTimeout(() => this.start(which), 1000);
          return;
        }
        violation(`the ${which} exited by itself (${code ?? signal}):\n${log.slice(-3000)}`);
      });
      children.set(which, child);
    },
    kill,
    run(args) {
      const child = spawnLastro(args);
      let stdout = '';
      child.stdout!.on('data', (chunk) => (stdout += chunk));
      child.stderr!.on('data', keep);
      // 'close', not 'exit': only then has all of its output been read.
      return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
    },
    async stopAll() {
      await kill('api');
      await kill('worker');
    },
    tail: () => log,
  };
}
