import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { PortInUseError, probePorts } from '../../src/platform/http/ports.ts';

/** A port free right now, as the system hands one out. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('refuses PORT and METRICS_PORT set to the same port before anything starts, naming the second', async () => {
  const port = await freePort();
  const probing = probePorts([
    { setting: 'PORT', port, host: '127.0.0.1' },
    { setting: 'METRICS_PORT', port, host: '127.0.0.1' },
  ]);
  await expect(probing).rejects.toThrow(PortInUseError);
  await expect(probing).rejects.toThrow(`METRICS_PORT ${port} is already in use`);
  // Every probe let go of its port, refused or not: the port is free again.
  await expect(probePorts([{ setting: 'PORT', port, host: '127.0.0.1' }])).resolves.toBeUndefined();
});
