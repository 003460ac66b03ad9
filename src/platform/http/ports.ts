/**
 * The ports a process will listen on, tried before anything slow (opening the database, migrating)
 * runs: a port another process holds is a setting to change, said in one line before minutes pass.
 */
import { createServer, type Server } from 'node:net';

export interface PortSetting {
  /** The setting that chose the port: what the message tells the reader to change. */
  setting: string;
  port: number;
  host: string;
}

/** A port another process holds; the message, one line, names the setting that chose it. */
export class PortInUseError extends Error {
  constructor(readonly wanted: PortSetting) {
    super(`${wanted.setting} ${wanted.port} is already in use: set ${wanted.setting} to a free port`);
  }
}

const portInUse = (wanted: PortSetting) => new PortInUseError(wanted);

/**
 * Binds every port, holding each until all are bound, then releases them: the first one in use
 * throws portInUse, including one that an earlier setting names too (PORT = METRICS_PORT). Port 0
 * (any free one) is skipped.
 */
export async function probePorts(ports: readonly PortSetting[]): Promise<void> {
  const held: Server[] = [];
  try {
    for (const wanted of ports) if (wanted.port !== 0) held.push(await bind(wanted));
  } finally {
    await Promise.all(held.map((probe) => new Promise((resolve) => probe.close(resolve))));
  }
}

function bind(wanted: PortSetting): Promise<Server> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? portInUse(wanted) : error),
    );
    probe.listen({ port: wanted.port, host: wanted.host, exclusive: true }, () => resolve(probe));
  });
}

/** Rethrows a listen's EADDRINUSE (another process took the port after the probe) as portInUse. */
export function inUseAs(wanted: PortSetting) {
  return (error: NodeJS.ErrnoException): never => {
    throw error.code === 'EADDRINUSE' ? portInUse(wanted) : error;
  };
}
