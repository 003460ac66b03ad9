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
 * first; the poll stays the fallback for a notification that never comes.
 */
import type { Deps } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import type { PixAutomaticApi } from '../../providers/pix/provider.ts';
import { syncLiveSubscription } from './live.ts';
import { findLiveSubscriptionByPspRef } from './repo.ts';

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
}

/** The items of a rec or cobr notification: whichever list the body carries, else none. */
function itemsOf(body: unknown): Item[] {
  if (!isItem(body)) return [];
  const list = Array.isArray(body.recs) ? body.recs : Array.isArray(body.cobsr) ? body.cobsr : [];
  return list.filter(isItem);
}

/**
 * Applies a notification's items. One the PSP's API could not confirm now (it is down) does not
 * stop the others; the answer is then 503 so the PSP delivers the notification again, which is
 * harmless for the items already applied.
 */
export async function receiveAutomaticNotification(deps: Deps, body: unknown): Promise<AutomaticReceipt> {
  const items = itemsOf(body);
  const seen = new Set<string>();
  let matched = 0;
  let applied = 0;
  let failed: unknown;
  for (const item of items) {
    const row = await findLiveSubscriptionByPspRef(deps.db, {
      idRec: text(item.idRec),
      txid: text(item.txid),
    });
    if (!row || seen.has(row.id)) continue;
    seen.add(row.id);
    matched++;
    try {
      applied += await syncLiveSubscription(deps, row);
    } catch (error) {
      failed ??= error;
    }
  }
  if (failed)
    throw new AppError(
      'provider_unavailable',
      `The PSP's API could not confirm the notification now: ${(failed as Error).message}.`,
    );
  return { received: items.length, matched, applied };
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
