/** A test world whose live PIX rail talks to the fake PSP over mutual TLS, its callbacks reaching the app. */
import { createServer } from 'node:net';
import { pixWebhookRegistration } from '../../src/modules/pix/notifications/webhook-registration.ts';
import { pspIdOf } from '../../src/providers/pix/psp-id.ts';
import { makeTestCerts } from '../support/fakes/certs.ts';
import { startFakePsp } from '../support/fakes/pix-psp.ts';
import { SETTLEMENT_KEY, startWorld, type Workspace } from '../support/world.ts';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export async function startLiveWorld() {
  const certs = makeTestCerts();
  const psp = await startFakePsp(certs);
  const port = await freePort();
  const webhookUrl = `http://127.0.0.1:${port}/v1/psp/pix/notifications`;
  const world = await startWorld({
    sandboxSettleMs: 0,
    pix: { provider: 'bcb', bcb: psp.settings(webhookUrl) },
  });
  await world.app.listen({ port, host: '127.0.0.1' });
  await pixWebhookRegistration.run(world.deps);
  return {
    world,
    psp,
    certs,
    webhookUrl,
    async close() {
      await world.close();
      await psp.close();
      certs.remove();
    },
  };
}

/** A live workspace: production on, a live key, KYC approved and the live settlement key set. */
export async function liveWorkspace(world: Awaited<ReturnType<typeof startWorld>>, name: string) {
  const ws: Workspace = await world.workspace(name);
  const live = await ws.liveApi();
  await world.db.query("UPDATE parties SET kyc_status = 'approved' WHERE id = $1", [ws.owner.defaultPartyId]);
  await ws.setSettlementKey('live', SETTLEMENT_KEY);
  return { ws, live };
}

export { pspIdOf };
