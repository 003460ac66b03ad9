/**
 * Every money-moving operation of the API, as a client would do it: under an Idempotency-Key,
 * sometimes sent twice at once (concurrent duplicates), sometimes sent again after its answer (a
 * retry that must give the same payment). Acknowledged payments are recorded for the final checks.
 */
import { randomUUID } from 'node:crypto';
import { type Answer, call, idempotent, isFinal, stats, violation } from './client.ts';
import {
  alone,
  type DatedContext,
  type DatedRecords,
  dueChargeOperation,
  subscriptionOperation,
} from './dated.ts';
import { CPF, OUTSIDE_EVM, type Space, type Tenant } from './world.ts';

export interface Acknowledged {
  workspaceId: string;
  paymentId: string;
  /** The key the payment was created under (null for the public checkout). */
  key: string | null;
  operation: string;
}

/** A status the API answered for a payment it settled (a charge paid, a payout failed): it must stay. */
export interface Confirmed {
  paymentId: string;
  status: 'completed' | 'failed';
}

export interface OpContext {
  base: string;
  random: () => number;
  untilMs: number;
  acked: Acknowledged[];
  confirmed: Confirmed[];
  /** What the date-driven operations expect, for the final checks. */
  dated: DatedRecords;
}

export const OPERATIONS = [
  'cash_in',
  'charge',
  'payout',
  'refund',
  'deposit',
  'send',
  'conversion',
  'checkout',
  'due_charge',
  'subscription',
] as const;
export type Operation = (typeof OPERATIONS)[number];

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const amount = (random: () => number, min: number, max: number) =>
  String(min + Math.floor(random() * (max - min)));

/** Sends a keyed POST once, or as two concurrent duplicates, or once and again after; checks they agree. */
async function keyed(
  ctx: OpContext,
  tenant: Space,
  path: string,
  body: unknown,
): Promise<{ key: string; answer: Answer }> {
  const key = randomUUID();
  const send = () => idempotent(ctx.base, path, tenant.api, key, body, () => ctx.untilMs);
  const roll = ctx.random();
  const answers = roll < 0.1 ? await Promise.all([send(), send()]) : [await send()];
  if (roll >= 0.1 && roll < 0.2) {
    stats.retries++;
    answers.push(await send());
    // An error is not stored (the request may succeed later), but a stored 200 is all a retry may get.
    if (answers[0]!.status === 200 && isFinal(answers[1]!) && answers[1]!.status !== 200)
      violation(`${path} key ${key} answered 200, then ${answers[1]!.status} to the same request`);
  }
  const ids = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.data.id));
  if (ids.size > 1) violation(`${path} key ${key} answered ${ids.size} different payments`);
  return { key, answer: answers.find((a) => a.status === 200) ?? answers[0]! };
}

function ack(ctx: OpContext, tenant: Space, operation: string, answer: Answer, key: string | null) {
  if (answer.status !== 200) return undefined;
  const id: string = answer.body.data.id;
  ctx.acked.push({ workspaceId: tenant.workspaceId, paymentId: id, key, operation });
  return id;
}

/** Records a final status the API answered, for the final checks to find it kept. */
function confirm(ctx: OpContext, paymentId: string, answer: Answer) {
  const status = answer.status === 200 ? answer.body.data.status : undefined;
  if (status === 'completed' || status === 'failed') ctx.confirmed.push({ paymentId, status });
}

async function pay(ctx: OpContext, tenant: Tenant, chargeId: string, net: bigint): Promise<void> {
  const { answer } = await keyed(ctx, tenant, `/v1/sandbox/simulate/payments/${chargeId}/pay`, {});
  confirm(ctx, chargeId, answer);
  if (answer.status === 200 && net > 0n) tenant.paid.push({ id: chargeId, left: net });
}

/** The date-driven operations' view of the context: keyed sends, acknowledgements, confirmations. */
const datedContext = (ctx: OpContext): DatedContext => ({
  ...ctx,
  // Read at each use: a grow of the cluster pushes the run's end back while operations are in flight.
  get untilMs() {
    return ctx.untilMs;
  },
  send: (space, path, body) => keyed(ctx, space, path, body),
  ack: (space, operation, answer, key) => ack(ctx, space, operation, answer, key),
  confirm: (paymentId, answer) => confirm(ctx, paymentId, answer),
});

export async function runOperation(ctx: OpContext, tenant: Tenant, operation: Operation): Promise<void> {
  const { random } = ctx;
  const party = pick(random, tenant.parties);
  switch (operation) {
    // Each runs alone in its clock's workspace; while another has it, the client charges instead.
    case 'due_charge': {
      const space = tenant.clocks?.due;
      if (!space || !(await alone(space, () => dueChargeOperation(datedContext(ctx), space))))
        return runOperation(ctx, tenant, 'charge');
      return;
    }
    case 'subscription': {
      const space = tenant.clocks?.subscriptions;
      if (!space || !(await alone(space, () => subscriptionOperation(datedContext(ctx), space))))
        return runOperation(ctx, tenant, 'charge');
      return;
    }
    case 'cash_in': {
      const body = { amount_minor: amount(random, 10_000, 500_000), party_id: party };
      const { key, answer } = await keyed(ctx, tenant, '/v1/sandbox/simulate/pix/cash-in', body);
      ack(ctx, tenant, operation, answer, key);
      return;
    }
    case 'charge': {
      const body = { amount_minor: amount(random, 1000, 50_000), party_id: party };
      const { key, answer } = await keyed(ctx, tenant, '/v1/sandbox/pix/charges', body);
      const id = ack(ctx, tenant, operation, answer, key);
      if (id) await pay(ctx, tenant, id, BigInt(body.amount_minor) - BigInt(answer.body.data.fee_minor));
      return;
    }
    case 'payout': {
      // An amount ending in 13 is refused by the sandbox PSP; some others are failed by hand.
      const value = random() < 0.1 ? `${amount(random, 10, 99)}13` : amount(random, 100, 20_000);
      const body = { amount_minor: value, pix_key: CPF, party_id: party };
      const { key, answer } = await keyed(ctx, tenant, '/v1/sandbox/pix/payouts', body);
      const id = ack(ctx, tenant, operation, answer, key);
      if (id && random() < 0.1) {
        const failed = await keyed(ctx, tenant, `/v1/sandbox/simulate/payments/${id}/fail`, {});
        confirm(ctx, id, failed.answer);
      }
      return;
    }
    case 'refund': {
      const charge = tenant.paid.find((c) => c.left > 0n);
      if (!charge) return runOperation(ctx, tenant, 'charge');
      const part = charge.left < 2n ? charge.left : 1n + BigInt(Math.floor(random() * Number(charge.left)));
      charge.left -= part;
      const body = { amount_minor: part.toString() };
      const { key, answer } = await keyed(ctx, tenant, `/v1/sandbox/payments/${charge.id}/refund`, body);
      if (answer.status !== 200) charge.left += part;
      // Fully refunded charges leave the list; it still grows with the run, as a refund takes only part.
      const at = tenant.paid.indexOf(charge);
      if (charge.left === 0n && at >= 0) tenant.paid.splice(at, 1);
      ack(ctx, tenant, operation, answer, key);
      return;
    }
    case 'deposit': {
      const body = {
        wallet_id: tenant.walletId,
        currency: 'USDT',
        amount_minor: amount(random, 1_000_000, 50_000_000),
      };
      const { answer } = await keyed(ctx, tenant, '/v1/sandbox/simulate/crypto/deposit', body);
      ack(ctx, tenant, operation, answer, null);
      return;
    }
    case 'send': {
      const body = {
        amount_minor: amount(random, 100_000, 2_000_000),
        to_address: OUTSIDE_EVM,
        network: 'polygon',
        currency: 'USDT',
      };
      const { key, answer } = await keyed(ctx, tenant, '/v1/sandbox/crypto/send', body);
      ack(ctx, tenant, operation, answer, key);
      return;
    }
    case 'conversion': {
      const quote = await call(ctx.base, 'POST', '/v1/sandbox/rfq/quote', tenant.api, {
        base_amount_minor: amount(random, 1000, 20_000),
        base_currency: 'BRL',
        quote_currency: 'USDT',
        party_id: party,
      });
      if (quote.status !== 200) return;
      const { key, answer } = await keyed(ctx, tenant, '/v1/sandbox/rfq/execute', {
        quote_id: quote.body.data.id,
      });
      ack(ctx, tenant, operation, answer, key);
      return;
    }
    case 'checkout': {
      const started = await call(
        ctx.base,
        'POST',
        `/pay/${tenant.linkSlug}/checkout`,
        {},
        {
          payer: { name: 'Comprador Soak', document: CPF },
        },
      );
      const id = ack(ctx, tenant, operation, started, null);
      if (id) await pay(ctx, tenant, id, 0n);
      return;
    }
  }
}
