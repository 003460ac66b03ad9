/** Helpers of the subscription tests: the sandbox clock's day, advancing it, and the events seen. */
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import type { Client, Workspace, World } from '../support/world.ts';

const DAY_MS = 86_400_000;

/** The workspace's sandbox day (São Paulo), as its test clock has it. */
export async function sandboxToday(ws: Workspace): Promise<string> {
  const clock = (await ws.api.get('/v1/sandbox/test-clock')).json().data;
  return dayOf(new Date(clock.now));
}

/** Moves the workspace's sandbox clock to `day` (same time of day), then runs the cycle task once. */
export async function advanceTo(world: World, ws: Workspace, day: string): Promise<void> {
  const today = await sandboxToday(ws);
  const days = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
  if (days > 0) {
    const res = await ws.api.post('/v1/sandbox/test-clock/advance', { days });
    if (res.statusCode !== 200) throw new Error(`advance: ${res.statusCode} ${res.body}`);
  }
  await runSubscriptionCycles(world.deps, { environment: 'sandbox', workspaceId: ws.owner.workspaceId });
}

/** Event types of one subscription (its own and its cycles'), oldest first. */
export async function subscriptionEvents(api: Client, id: string, env = 'sandbox'): Promise<string[]> {
  const res = await api.get(`/v1/${env}/events?limit=100`);
  if (res.statusCode !== 200) throw new Error(`events: ${res.statusCode} ${res.body}`);
  return (res.json().data as { type: string; data: { object: { id?: string; subscription_id?: string } } }[])
    .filter((event) => event.type.startsWith('subscription.'))
    .filter((event) => (event.data.object.subscription_id ?? event.data.object.id) === id)
    .map((event) => event.type)
    .reverse();
}

export const monthly = (start: string, extra: Record<string, unknown> = {}) => ({
  debtor: { name: 'Fulano de Tal', document: '529.982.247-25' },
  amount_minor: '3500',
  frequency: 'monthly',
  start_date: start,
  ...extra,
});

export { addDays };

/** The BRL available balance of the workspace's default party, as GET /balances shows it. */
export async function available(api: Client, env = 'sandbox'): Promise<string> {
  const res = await api.get(`/v1/${env}/balances?currency=BRL`);
  if (res.statusCode !== 200) throw new Error(`balances: ${res.statusCode} ${res.body}`);
  const row = (res.json().data as { kind: string; balance_minor: string }[]).find(
    (b) => b.kind === 'available',
  );
  return row?.balance_minor ?? '0';
}
