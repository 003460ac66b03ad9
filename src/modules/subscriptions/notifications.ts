/**
 * The PSP's Pix Automático notifications (github.com/bacen/pix-api openapi.yaml v2.9.0, the callbacks
 * of PUT /webhookrec and PUT /webhookcobr): POST {webhookUrl}/rec with {"recs": [RecNotification]}
 * (idRec, status: an approval, a refusal, a cancellation by either side) and POST {webhookUrl}/cobr
 * with {"cobsr": [CobRNotification]} (idRec, txid, status, tentativas: a cycle paid, an attempt
 * rejected with its rejeicao). As for the PIX callback, an item only says "look now": the
 * subscription it names is brought up to date from the PSP's API (GET /rec/{idRec}, GET
 * /cobr/{txid}) by the same steps as the poll, each one transaction under the subscription's lock
 * that moves only what has not moved yet. A repeated, late or forged item therefore changes nothing,
 * and a cycle is credited once whichever of the notification, the poll or the PIX callback sees it
 * first; the poll stays the fallback for a notification that never comes or an item set aside.
 */
import { createHash } from 'node:crypto';
import type { Deps } from '../../platform/context.ts';
import { isRoundError, type SetAsideFailure, setAside } from '../../platform/set-aside.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import type { PixAutomaticApi } from '../../providers/pix/provider.ts';
import { syncLiveSubscription } from './live.ts';
import { findLiveSubscriptionByPspRef, type SubscriptionRow } from './repo.ts';

type Item = Record<string, unknown>;
const isItem = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

export interface AutomaticReceipt {
  /** Items in the notification. */
  received: number;
  /** Items naming one of our live subscriptions, each brought up to date. */
  matched: number;
  /** Changes made: a status moved, a cycle credited, failed or retried. */
  applied: number;
  /** Items that failed, set aside for an operator (set_aside_items). */
  setAside: SetAsideFailure[];
}

/** Where a notification item that fails is set aside (set_aside_items.source). */
export const AUTOMATIC_NOTIFICATION = 'pix-automatico-notification';

/** The items of a rec or cobr notification: whichever list the body carries, else none. */
function itemsOf(body: unknown): Item[] {
  if (!isItem(body)) return [];
  const list = Array.isArray(body.recs) ? body.recs : Array.isArray(body.cobsr) ? body.cobsr : [];
  return list.filter(isItem);
}

/**
 * Applies a notification's items, each on its own. One that fails (its cobr cannot be read, the
 * PSP's API is down) is set aside and the rest are applied: answering the PSP with an error would
 * have it deliver the whole notification again, for ever when the item always fails, and the
 * cycle task's poll brings that subscription up to date anyway. Only an error of the database
 * stops the notification, which the PSP then delivers again.
 */
export async function receiveAutomaticNotification(deps: Deps, body: unknown): Promise<AutomaticReceipt> {
  const items = itemsOf(body);
  const seen = new Set<string>();
  const receipt: AutomaticReceipt = { received: items.length, matched: 0, applied: 0, setAside: [] };
  for (const item of items) {
    let row: SubscriptionRow | undefined;
    try {
      row = await findLiveSubscriptionByPspRef(deps.db, { idRec: text(item.idRec), txid: text(item.txid) });
      if (!row || seen.has(row.id)) continue;
      seen.add(row.id);
      receipt.matched++;
      receipt.applied += await syncLiveSubscription(deps, row);
    } catch (error) {
      if (isRoundError(error)) throw error;
      const key = createHash('sha256').update(JSON.stringify(item)).digest('hex');
      const described = { key, environment: 'live' as const, workspaceId: row?.workspace_id, payload: item };
      receipt.setAside.push(
        await setAside(deps.db, AUTOMATIC_NOTIFICATION, described, error, deps.clock.now()),
      );
    }
  }
  return receipt;
}

const registered = new WeakSet<PixAutomaticApi>();

/**
 * Registers our Pix Automático notification URL with the live PSP (PUT /webhookrec and /webhookcobr,
 * idempotent) once per process, from the workers; a PSP that is down never holds up the start, and
 * the cycle task's poll covers what happens meanwhile.
 */
export const automaticWebhookRegistration: BackgroundTask = {
  name: 'pix-automatico-webhook-registration',
  intervalMs: 30_000,
  async run(deps: Deps) {
    if (!deps.providers.has('pix', 'live')) return 0;
    const api = deps.providers.get('pix', 'live').automatic;
    if (!api?.registerWebhooks || registered.has(api)) return 0;
    await api.registerWebhooks();
    registered.add(api);
    return 0;
  },
};
