/**
 * The date-driven operations: due-date charges (BCB CobV) paid early, on time or late, and Pix
 * Automático subscriptions run through their cycles, both by moving their workspace's sandbox clock.
 * Each runs alone in a workspace of its own (ClockSpace: the clock is per workspace and everything
 * dated in it follows), and checks what the party was credited against what the soak computes itself:
 * the amount due by the BCB rules (bcb.ts) and the cash-in fee of the space's schedule.
 */

import { addDays, addMonths, type ChargeTerms, cashInFee, daysFrom, dueOn, saoPauloDay } from './bcb.ts';
import { type Answer, call, isFinal, stats, violation } from './client.ts';
import type { ClockSpace } from './world.ts';
import { CPF } from './world.ts';

/** What the final checks compare with the database: the soak's own expectations. */
export interface DatedRecords {
  dueCharges: { workspaceId: string; id: string; paidMinor: bigint | null }[];
  subscriptions: {
    space: ClockSpace;
    id: string;
    /** The cycles the soak expects paid, once the operation ran to its end; null when it did not. */
    paidCycles: number | null;
    cancelled: boolean;
  }[];
}

/** The part of the operations' context these need (operations.ts's OpContext). */
export interface DatedContext {
  base: string;
  random: () => number;
  untilMs: number;
  dated: DatedRecords;
  send: (space: ClockSpace, path: string, body: unknown) => Promise<{ key: string; answer: Answer }>;
  ack: (space: ClockSpace, operation: string, answer: Answer, key: string | null) => void;
  confirm: (paymentId: string, answer: Answer) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (random: () => number, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

/** A GET answered 200, asked again while the API is down or busy, up to the run's end. */
async function read(ctx: DatedContext, space: ClockSpace, path: string): Promise<Answer | undefined> {
  for (let attempt = 0; ; attempt++) {
    const answer = await call(ctx.base, 'GET', path, space.api);
    if (answer.status === 200) return answer;
    if (isFinal(answer)) {
      violation(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      return undefined;
    }
    if (Date.now() > ctx.untilMs) return undefined;
    stats.retries++;
    await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 4)));
  }
}

/** A keyed POST that must succeed: any final answer but 200 is a violation; no answer, undefined. */
async function must(ctx: DatedContext, space: ClockSpace, path: string, body: unknown) {
  const { key, answer } = await ctx.send(space, path, body);
  if (answer.status === 200) return { ...answer, key };
  if (isFinal(answer)) violation(`${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return undefined;
}

async function today(ctx: DatedContext, space: ClockSpace): Promise<string | undefined> {
  const clock = await read(ctx, space, '/v1/sandbox/test-clock');
  return clock && saoPauloDay(clock.body.data.now);
}

async function available(ctx: DatedContext, space: ClockSpace): Promise<bigint | undefined> {
  const answer = await read(ctx, space, `/v1/sandbox/balances?currency=BRL&party_id=${space.parties[0]}`);
  if (!answer) return undefined;
  const row = (answer.body.data as { kind: string; balance_minor: string }[]).find(
    (b) => b.kind === 'available',
  );
  return BigInt(row?.balance_minor ?? '0');
}

/** Moves the space's clock `days` ahead (keyed: a duplicate or a retry moves it once). */
async function advance(ctx: DatedContext, space: ClockSpace, days: number): Promise<boolean> {
  if (days <= 0) return true;
  return !!(await must(ctx, space, '/v1/sandbox/test-clock/advance', { days }));
}

/** Runs `work` alone in the space, or answers false at once when another operation has it. */
export async function alone(space: ClockSpace, work: () => Promise<void>): Promise<boolean> {
  if (space.busy) return false;
  space.busy = true;
  try {
    await work();
  } finally {
    space.busy = false;
  }
  return true;
}

/** Terms of the modalities the soak offers: a fine, interest, a discount for paying early, a rebate. */
function randomTerms(random: () => number, due: string, from: string): ChargeTerms {
  const terms: ChargeTerms = {};
  const percent = (max: number) =>
    `${between(random, 0, max)}.${String(between(random, 1, 99)).padStart(2, '0')}`;
  if (random() < 0.7)
    terms.fine =
      random() < 0.5
        ? { modality: 1, value_minor: String(between(random, 1, 900)) }
        : { modality: 2, percent: percent(4) };
  if (random() < 0.7) {
    const modality = pick(random, [1, 2, 3, 4] as const);
    terms.interest =
      modality === 1
        ? { modality, value_minor: String(between(random, 1, 40)) }
        : { modality, percent: percent(modality === 2 ? 0 : 9) };
  }
  if (random() < 0.5) {
    const dates = [...new Set([addDays(from, between(random, 0, daysFrom(from, due))), due])].sort();
    terms.discount =
      random() < 0.5
        ? {
            modality: 1,
            dates: dates.map((date) => ({ date, value_minor: String(between(random, 1, 300)) })),
          }
        : { modality: 3, value_minor: String(between(random, 1, 20)) };
  }
  if (random() < 0.2) terms.rebate = { modality: 2, percent: percent(2) };
  return terms;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/**
 * A due-date charge created today for a day 1 to 10 days ahead, paid early, on its due date or late
 * (within its validity) by moving the clock to that day: the charge asks, the payment holds and the
 * party is credited what the BCB rules ask that day, less the cash-in fee.
 */
export async function dueChargeOperation(ctx: DatedContext, space: ClockSpace): Promise<void> {
  const { random } = ctx;
  const from = await today(ctx, space);
  if (!from) return;
  const original = BigInt(between(random, 1000, 50_000));
  const due = addDays(from, between(random, 1, 10));
  const daysValid = between(random, 1, 20);
  const terms = randomTerms(random, due, from);
  const created = await must(ctx, space, '/v1/sandbox/pix/due-charges', {
    amount_minor: String(original),
    due_date: due,
    days_valid_after_due: daysValid,
    debtor: { name: 'Devedor Soak', document: CPF },
    ...terms,
  });
  if (!created) return;
  ctx.ack(space, 'due_charge', created, created.key);
  const id: string = created.body.data.id;
  const record = { workspaceId: space.workspaceId, id, paidMinor: null as bigint | null };
  ctx.dated.dueCharges.push(record);
  const when = random();
  const payDay =
    when < 0.35
      ? addDays(from, between(random, 0, daysFrom(from, due) - 1))
      : when < 0.6
        ? due
        : addDays(due, between(random, 1, daysValid));
  if (!(await advance(ctx, space, daysFrom(from, payDay)))) return;
  const expected = dueOn({ original, due, terms }, payDay);
  const shown = await read(ctx, space, `/v1/sandbox/pix/due-charges/${id}`);
  if (
    shown &&
    (shown.body.data.today !== payDay || BigInt(shown.body.data.amount_due_today_minor) !== expected)
  )
    violation(
      `due charge ${id} shows ${shown.body.data.amount_due_today_minor} due on ${shown.body.data.today}; the soak computes ${expected} on ${payDay}`,
    );
  await payDue(ctx, space, record, expected);
}

/** Pays the charge and checks the payment and the party's credit against `expected`. */
async function payDue(
  ctx: DatedContext,
  space: ClockSpace,
  record: DatedRecords['dueCharges'][number],
  expected: bigint,
) {
  const before = await available(ctx, space);
  const paid = await must(ctx, space, `/v1/sandbox/simulate/payments/${record.id}/pay`, {});
  if (!paid) return;
  ctx.confirm(record.id, paid);
  record.paidMinor = expected;
  const fee = cashInFee(expected, space.fee);
  const { amount_minor, fee_minor } = paid.body.data;
  if (BigInt(amount_minor) !== expected || BigInt(fee_minor) !== fee)
    violation(
      `due charge ${record.id} paid ${amount_minor} (fee ${fee_minor}); the soak computes ${expected} (fee ${fee})`,
    );
  const after = await available(ctx, space);
  if (before !== undefined && after !== undefined && after - before !== expected - fee)
    violation(
      `due charge ${record.id}: the party was credited ${after - before}, the soak computes ${expected - fee}`,
    );
}

/** The plan of one subscription: its cycles, retries, planned failures and whether it is cancelled. */
function planSubscription(random: () => number, from: string) {
  const frequency = random() < 0.7 ? ('weekly' as const) : ('monthly' as const);
  const start = addDays(from, between(random, 3, 9));
  const cycles = between(random, 1, 3);
  const dueOf = (n: number) =>
    frequency === 'weekly' ? addDays(start, 7 * (n - 1)) : addMonths(start, n - 1);
  const retry = random() < 0.5 ? ('three_in_seven_days' as const) : ('none' as const);
  const roll = random();
  // Failures fall on the first cycle's attempts: 1 is retried (or fails it without retries), 4 fail it.
  const failures = roll < 0.6 ? 0 : roll < 0.85 || retry === 'none' ? 1 : 4;
  const firstFails = failures > 0 && (retry === 'none' || failures === 4);
  // Cancelled after `kept` cycles ran: the day before the next falls due (its retries, 6 days at most, done).
  const kept = random() < 0.3 ? between(random, 0, cycles - 1) : null;
  const until = kept === null ? addDays(dueOf(cycles), 8) : addDays(dueOf(kept + 1), -1);
  const ran = kept ?? cycles;
  const paid = ran - (firstFails && ran > 0 ? 1 : 0);
  return { frequency, start, end: dueOf(cycles), retry, failures, kept, until, paid };
}

/** Advances the clock to `day` in one to three moves, running the space's cycles after each. */
async function runTo(ctx: DatedContext, space: ClockSpace, day: string): Promise<boolean> {
  let now = await today(ctx, space);
  for (let moves = 0; now && now < day; moves++) {
    const left = daysFrom(now, day);
    const days = moves >= 2 ? left : between(ctx.random, 1, left);
    if (!(await advance(ctx, space, days))) return false;
    if (!(await must(ctx, space, '/v1/sandbox/simulate/subscriptions/run-cycles', {}))) return false;
    now = addDays(now, days);
  }
  return now !== undefined;
}

/**
 * A subscription created, authorised and run through its cycles by the clock, some with a failed
 * payment (retried or not), some cancelled partway and run on past their end: it ends completed or
 * cancelled with the cycles the soak expects paid, each credited once, less the cash-in fee.
 */
export async function subscriptionOperation(ctx: DatedContext, space: ClockSpace): Promise<void> {
  const from = await today(ctx, space);
  if (!from) return;
  const plan = planSubscription(ctx.random, from);
  const amount = BigInt(between(ctx.random, 1000, 20_000));
  const created = await must(ctx, space, '/v1/sandbox/subscriptions', {
    debtor: { name: 'Assinante Soak', document: CPF },
    amount_minor: String(amount),
    frequency: plan.frequency,
    start_date: plan.start,
    end_date: plan.end,
    retry_policy: plan.retry,
  });
  if (!created) return;
  const record = {
    space,
    id: created.body.data.id as string,
    paidCycles: null as number | null,
    cancelled: false,
  };
  ctx.dated.subscriptions.push(record);
  const path = `/v1/sandbox/simulate/subscriptions/${record.id}`;
  if (!(await must(ctx, space, `${path}/authorise`, { approve: true }))) return;
  if (plan.failures && !(await must(ctx, space, `${path}/fail-payments`, { attempts: plan.failures })))
    return;
  const before = await available(ctx, space);
  if (!(await runTo(ctx, space, plan.until))) return;
  if (plan.kept !== null) {
    if (!(await must(ctx, space, `/v1/sandbox/subscriptions/${record.id}/cancel`, {}))) return;
    record.cancelled = true;
    // Run on past its end: nothing more may be charged.
    if (!(await runTo(ctx, space, addDays(plan.end, 10)))) return;
  }
  record.paidCycles = plan.paid;
  const shown = await read(ctx, space, `/v1/sandbox/subscriptions/${record.id}`);
  const status = plan.kept === null ? 'completed' : 'cancelled';
  if (shown && (shown.body.data.status !== status || shown.body.data.cycles_paid !== plan.paid))
    violation(
      `subscription ${record.id} is ${shown.body.data.status} with ${shown.body.data.cycles_paid} cycles paid; the soak expects ${status} with ${plan.paid} (${JSON.stringify(plan)})`,
    );
  const after = await available(ctx, space);
  const credit = BigInt(plan.paid) * (amount - cashInFee(amount, space.fee, 'cycle'));
  if (before !== undefined && after !== undefined && after - before !== credit)
    violation(
      `subscription ${record.id}: the party was credited ${after - before}, the soak computes ${credit}`,
    );
}
