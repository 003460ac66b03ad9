/**
 * Many due-date charges in one request, each checked on its own: a faulty item gets its error and
 * nothing is written for it, the others are created in one transaction. Live sends the valid ones
 * to the PSP as one lote (PUT /lotecobv/{id}, github.com/bacen/pix-api, openapi.yaml v2.9.0, tag
 * LoteCobV), which the PSP creates in the background: GET /lotecobv/{id} is asked, a bounded number
 * of times, until each request is CRIADA or NEGADA; one still processing is recorded without its
 * BR Code, which the due-charge poll fills in.
 */
import { randomInt } from 'node:crypto';
import type { Tx } from '../../db/types.ts';
import { AppError } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import type { DueBatchItem, DueChargeApi, IssuedDueCharge } from '../../providers/pix/due-charge-api.ts';
import { pspIdOf } from '../../providers/pix/psp-id.ts';
import {
  issueDueCharge,
  type PreparedDueCharge,
  prepareDueCharge,
  recordDueCharge,
  todayFor,
} from './due-charges.ts';
import type { DueChargeBatchResponse } from './due-schemas.ts';
import type { DueChargeInput } from './due-terms.ts';

type Result = DueChargeBatchResponse['results'][number];
type Issued = {
  index: number;
  charge: PreparedDueCharge;
  issued: Omit<IssuedDueCharge, 'brCode'> & { brCode: string | null };
};

/** How often, and how far apart, a live batch's outcome is asked for before the answer is given. */
const BATCH_POLLS = 20;
const BATCH_POLL_MS = 250;

const failure = (index: number, error: AppError): Result => ({
  index,
  charge: null,
  error: { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
});

/** The lote's outcome, asked until no request is still being processed (or the polls run out). */
async function settledBatch(api: DueChargeApi, batchId: string): Promise<Map<string, DueBatchItem>> {
  let items: DueBatchItem[] = [];
  for (let poll = 0; poll < BATCH_POLLS; poll++) {
    items = await api.getBatch(batchId);
    if (items.length > 0 && items.every((item) => item.status !== 'processing')) break;
    await new Promise((resolve) => setTimeout(resolve, BATCH_POLL_MS));
  }
  return new Map(items.map((item) => [item.txid, item]));
}

/** Live: one lote at the PSP; each created request's BR Code read back from its cobv. */
async function issueLive(
  ctx: Ctx,
  batchId: string,
  description: string,
  valid: Issued['charge'][],
  indexOf: Map<string, number>,
) {
  const api = ctx.deps.providers.get('pix', 'live').dueCharges;
  if (!api)
    throw new AppError(
      'provider_unavailable',
      'The live PIX provider does not offer charges with a due date.',
    );
  await api.createBatch(
    batchId,
    description,
    valid.map((charge) => charge.provider),
  );
  const outcome = await settledBatch(api, batchId);
  const issued: Issued[] = [];
  const failed: Result[] = [];
  for (const charge of valid) {
    const txid = pspIdOf(charge.paymentId);
    const index = indexOf.get(charge.paymentId)!;
    const item = outcome.get(txid);
    if (item?.status === 'denied') {
      const problem = item.problem ?? 'NEGADA';
      failed.push(
        failure(index, new AppError('invalid_request', `The PSP refused this charge: ${problem}.`)),
      );
      continue;
    }
    // One the PSP is still creating may well exist there later: it is recorded without its BR Code,
    // which the due-charge poll reads from the cobv once the PSP has it, so no charge lives at the
    // PSP that the books do not know.
    const cobv = item?.status === 'created' ? await api.get(txid) : undefined;
    issued.push({
      index,
      charge,
      issued: { txid, brCode: cobv?.brCode ?? null, providerRef: cobv?.locId ?? txid },
    });
  }
  return { issued, failed };
}

/** POST /v1/{env}/pix/due-charges/batch. */
export async function createDueChargeBatch(
  ctx: Ctx,
  input: { description?: string; charges: DueChargeInput[] },
  write: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
): Promise<DueChargeBatchResponse> {
  const today = await todayFor(ctx.deps.db, ctx.deps, ctx.caller);
  const results: Result[] = [];
  const valid: PreparedDueCharge[] = [];
  const indexOf = new Map<string, number>();
  for (const [index, item] of input.charges.entries()) {
    try {
      const charge = await prepareDueCharge(ctx, item, today);
      valid.push(charge);
      indexOf.set(charge.paymentId, index);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push(failure(index, error));
    }
  }
  const live = ctx.caller.environment === 'live';
  // The standard's lote id is a number (LoteCobVConsultado.id, int64).
  const batchId = live && valid.length > 0 ? String(randomInt(1, 2 ** 47)) : null;
  let issued: Issued[] = [];
  if (batchId) {
    const outcome = await issueLive(ctx, batchId, input.description ?? 'Lastro', valid, indexOf);
    issued = outcome.issued;
    results.push(...outcome.failed);
  } else
    for (const charge of valid)
      issued.push({
        index: indexOf.get(charge.paymentId)!,
        charge,
        issued: await issueDueCharge(ctx.deps, ctx.caller, charge),
      });
  // The whole answer is the write's: a re-send with its Idempotency-Key replays exactly this.
  return write(async (tx) => {
    const created: Result[] = [];
    for (const item of issued)
      created.push({
        index: item.index,
        charge: await recordDueCharge(tx, ctx, item.charge, item.issued),
        error: null,
      });
    return { batch_id: batchId, results: [...results, ...created].sort((a, b) => a.index - b.index) };
  });
}
