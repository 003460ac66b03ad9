import { type ChildProcess, spawn } from 'node:child_process';

export interface Captured {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr together. */
  output(): string;
  exited: Promise<number | null>;
}

/** A child process whose output the test reads. */
export function spawnCaptured(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Captured {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}
