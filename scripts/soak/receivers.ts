/**
 * Webhook receivers on loopback: `ok` answers 200; `flaky` fails the first attempt of some events
 * (500); `hang` lets the first attempt of a few events run past the sender's timeout; `gone` answers
 * 410 (the endpoint gets disabled). Every request's Standard Webhooks signature is checked; what was
 * acknowledged is kept by webhook-id, so redeliveries count once.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export type ReceiverMode = 'ok' | 'flaky' | 'hang' | 'gone';
export const RECEIVER_MODES: readonly ReceiverMode[] = ['ok', 'flaky', 'hang', 'gone'];

export interface Receivers {
  url(mode: ReceiverMode, name: string): string;
  register(mode: ReceiverMode, name: string, secret: string): void;
  /** webhook-ids acknowledged (2xx) on one receiver path. */
  acknowledged(mode: ReceiverMode, name: string): Set<string>;
  /**
   * The subscription.cycle_paid events acknowledged on one receiver path, by cycle
   * (`subscription_id#sequence`): more than one event id for a cycle is a cycle credited twice.
   */
  cyclesPaid(mode: ReceiverMode, name: string): Map<string, Set<string>>;
  counts: { requests: number; badSignatures: number; failedOnPurpose: number; hung: number };
  close(): Promise<void>;
}

interface SignedEvent {
  id?: unknown;
  type?: string;
  data?: { object?: { subscription_id?: string; sequence?: number } };
}

function countCycle(
  cycles: Map<string, Map<string, Set<string>>>,
  path: string,
  event: SignedEvent,
  id: string,
) {
  const cycle = `${event.data?.object?.subscription_id}#${event.data?.object?.sequence}`;
  if (!cycles.has(path)) cycles.set(path, new Map());
  const byCycle = cycles.get(path)!;
  if (!byCycle.has(cycle)) byCycle.set(cycle, new Set());
  byCycle.get(cycle)!.add(id);
}

export async function startReceivers(random: () => number, hangMs = 17_000): Promise<Receivers> {
  const secrets = new Map<string, Webhook>();
  const acked = new Map<string, Set<string>>();
  const cycles = new Map<string, Map<string, Set<string>>>();
  const attempted = new Set<string>();
  const counts = { requests: 0, badSignatures: 0, failedOnPurpose: 0, hung: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      counts.requests++;
      const path = req.url ?? '';
      const mode = path.split('/')[2] as ReceiverMode;
      const body = Buffer.concat(chunks).toString();
      const id = String(req.headers['webhook-id'] ?? '');
      let event: SignedEvent;
      try {
        event = secrets.get(path)!.verify(body, req.headers as Record<string, string>) as SignedEvent;
        // The signature covers the header's id; the event in the body must be that one.
        if (event.id !== id) throw new Error('webhook-id is not the event id');
      } catch {
        counts.badSignatures++;
        res.writeHead(400).end();
        return;
      }
      // Only the modes that misbehave on a first attempt remember attempts, and only until acknowledged:
      // a run of a million operations would otherwise hold a string per delivery twice. A re-send of an
      // event already acknowledged (its sender timed out, or could not record the answer) is not a
      // first attempt: failing it again on purpose made chains of failures that reached the sender's
      // 30-minute retry step, and the run's final check then waited for it.
      const tried = `${path} ${id}`;
      const first =
        (mode === 'flaky' || mode === 'hang') && !attempted.has(tried) && acked.get(path)?.has(id) !== true;
      if (first) attempted.add(tried);
      const ack = () => {
        attempted.delete(tried);
        if (!acked.has(path)) acked.set(path, new Set());
        acked.get(path)!.add(id);
        if (event.type === 'subscription.cycle_paid') countCycle(cycles, path, event, id);
        res.writeHead(200).end('ok');
      };
      if (mode === 'gone') res.writeHead(410).end();
      else if (mode === 'flaky' && first && random() < 0.3) {
        counts.failedOnPurpose++;
        res.writeHead(500).end();
      } else if (mode === 'hang' && first && random() < 0.02) {
        counts.hung++;
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.writableEnded) res.writeHead(200).end('too late');
        }, hangMs);
        timers.add(timer);
      } else ack();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const pathOf = (mode: ReceiverMode, name: string) => `/hooks/${mode}/${name}`;
  return {
    url: (mode, name) => `http://127.0.0.1:${port}${pathOf(mode, name)}`,
    register: (mode, name, secret) => secrets.set(pathOf(mode, name), new Webhook(secret)),
    acknowledged: (mode, name) => acked.get(pathOf(mode, name)) ?? new Set(),
    cyclesPaid: (mode, name) => cycles.get(pathOf(mode, name)) ?? new Map(),
    counts,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
