/**
 * Checks a due-date charge's request against the BCB API Pix's CobV rules before anything is
 * written or the PSP is called (github.com/bacen/pix-api, openapi.yaml v2.9.0: CobVSolicitada,
 * CobVValor and the CobVOperacaoInvalida violations). Every refusal is 400: invalid_amount for the
 * amount, invalid_request with the field at fault for the rest (docs/guides/due-date-charges.md
 * lists them).
 */
import { parseAmount } from '../../ledger/currency.ts';
import { AppError, type ErrorDetail, invalidRequest } from '../../platform/errors.ts';
import { MAX_BR_CODE_AMOUNT_MINOR } from '../../providers/pix/brcode.ts';
import { parseDocument } from '../../providers/pix/keys.ts';
import {
  type DatedDiscount,
  type DiscountTerms,
  type DueTerms,
  type FixedPart,
  percentHundredths,
} from './due-amount.ts';

export interface DueChargeInput {
  amount_minor: string;
  currency?: string;
  due_date: string;
  days_valid_after_due?: number;
  debtor: { name: string; document: string };
  description?: string;
  party_id?: string;
  fine?: FixedPart;
  interest?: FixedPart;
  rebate?: FixedPart;
  discount?: DiscountTerms;
  metadata?: Record<string, unknown>;
}

/** The standard's default for calendario.validadeAposVencimento. */
export const DEFAULT_DAYS_VALID_AFTER_DUE = 30;

/** Which modalities take a value, a percentage or dates; business-day ones are absent on purpose. */
const SHAPES = {
  fine: { 1: 'value', 2: 'percent' },
  interest: { 1: 'value', 2: 'percent', 3: 'percent', 4: 'percent' },
  rebate: { 1: 'value', 2: 'percent' },
  discount: { 1: 'dated_value', 2: 'dated_percent', 3: 'value', 5: 'percent' },
} as const satisfies Record<keyof DueTerms, Record<number, string>>;
const BUSINESS_DAY_MODALITIES: Record<keyof DueTerms, number[]> = {
  fine: [],
  rebate: [],
  interest: [5, 6, 7, 8],
  discount: [4, 6],
};

type Shape = 'value' | 'percent' | 'dated_value' | 'dated_percent';
type Problems = ErrorDetail[];

const isDate = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** A value part: positive, and below the original where the standard asks (rebate, discount). */
function checkValue(field: string, value: string | undefined, below: bigint | undefined, problems: Problems) {
  if (value === undefined) return problems.push({ field, issue: 'is required for this modality' });
  if (BigInt(value) === 0n) return problems.push({ field, issue: 'must be more than 0' });
  if (below !== undefined && BigInt(value) >= below)
    problems.push({ field, issue: 'must be less than amount_minor' });
}

function checkPercent(field: string, percent: string | undefined, belowHundred: boolean, problems: Problems) {
  if (percent === undefined) return problems.push({ field, issue: 'is required for this modality' });
  const hundredths = percentHundredths(percent);
  if (hundredths === 0n) return problems.push({ field, issue: 'must be more than 0.00' });
  if (belowHundred ? hundredths >= 10_000n : hundredths > 10_000n)
    problems.push({ field, issue: belowHundred ? 'must be less than 100.00' : 'must be at most 100.00' });
}

function checkDates(
  field: string,
  dates: DatedDiscount[] | undefined,
  key: 'value_minor' | 'percent',
  context: { dueDate: string; nominal: bigint },
  problems: Problems,
) {
  if (!dates || dates.length === 0)
    return problems.push({
      field: `${field}.dates`,
      issue: 'is required for modality 1 and 2 (1 to 3 dates)',
    });
  const seen = new Set<string>();
  dates.forEach((entry, i) => {
    const at = `${field}.dates.${i}`;
    if (!isDate(entry.date)) problems.push({ field: `${at}.date`, issue: 'must be a date YYYY-MM-DD' });
    else if (entry.date > context.dueDate)
      problems.push({ field: `${at}.date`, issue: 'must be on or before due_date' });
    if (seen.has(entry.date)) problems.push({ field: `${at}.date`, issue: 'appears twice' });
    seen.add(entry.date);
    const other = key === 'value_minor' ? 'percent' : 'value_minor';
    if (entry[other] !== undefined)
      problems.push({ field: `${at}.${other}`, issue: 'not for this modality' });
    if (key === 'value_minor') checkValue(`${at}.value_minor`, entry.value_minor, context.nominal, problems);
    else checkPercent(`${at}.percent`, entry.percent, true, problems);
  });
}

/** One term (fine, interest, rebate or discount) against the modality it names. */
function checkTerm(
  name: keyof DueTerms,
  part: DiscountTerms,
  context: { dueDate: string; nominal: bigint },
  problems: Problems,
) {
  const field = `body.${name}`;
  if (BUSINESS_DAY_MODALITIES[name].includes(part.modality))
    return problems.push({
      field: `${field}.modality`,
      issue: `modality ${part.modality} counts business days, which this service does not offer`,
    });
  const shape = (SHAPES[name] as Record<number, Shape>)[part.modality];
  if (!shape)
    return problems.push({
      field: `${field}.modality`,
      issue: `must be one of ${Object.keys(SHAPES[name]).join(', ')}`,
    });
  // The standard refuses a rebate or discount of the whole charge or more; a fine or interest has no bound.
  const bounded = name === 'rebate' || name === 'discount';
  const stray = (key: 'value_minor' | 'percent' | 'dates') =>
    part[key] !== undefined && problems.push({ field: `${field}.${key}`, issue: 'not for this modality' });
  if (shape === 'value') {
    stray('percent');
    stray('dates');
    checkValue(`${field}.value_minor`, part.value_minor, bounded ? context.nominal : undefined, problems);
  } else if (shape === 'percent') {
    stray('value_minor');
    stray('dates');
    checkPercent(`${field}.percent`, part.percent, bounded, problems);
  } else {
    stray('value_minor');
    stray('percent');
    checkDates(field, part.dates, shape === 'dated_value' ? 'value_minor' : 'percent', context, problems);
  }
}

/**
 * The checked charge: its amount, its debtor's document and its terms. `today` is the São Paulo
 * date now (the sandbox clock's in sandbox): the due date may not be before it.
 */
export function validateDueCharge(input: DueChargeInput, today: string) {
  const amount = parseAmount(input.amount_minor);
  if (amount > MAX_BR_CODE_AMOUNT_MINOR)
    throw new AppError('invalid_amount', `A PIX charge is at most ${MAX_BR_CODE_AMOUNT_MINOR} minor units.`, [
      { field: 'body.amount_minor', issue: `must be at most ${MAX_BR_CODE_AMOUNT_MINOR}` },
    ]);
  const problems: Problems = [];
  if (!isDate(input.due_date)) problems.push({ field: 'body.due_date', issue: 'must be a date YYYY-MM-DD' });
  else if (input.due_date < today)
    problems.push({ field: 'body.due_date', issue: `must be today (${today}, São Paulo) or later` });
  const document = parseDocument(input.debtor.document);
  if (!document) problems.push({ field: 'body.debtor.document', issue: 'not a valid CPF or CNPJ' });
  const context = { dueDate: input.due_date, nominal: amount };
  for (const name of ['fine', 'interest', 'rebate', 'discount'] as const) {
    const part = input[name];
    if (part) checkTerm(name, part, context, problems);
  }
  if (problems.length > 0)
    throw invalidRequest(
      `The due-date charge is not valid: ${problems[0]!.field} ${problems[0]!.issue}.`,
      problems,
    );
  const terms: DueTerms = {};
  for (const name of ['fine', 'interest', 'rebate', 'discount'] as const)
    if (input[name]) terms[name] = input[name];
  return {
    amount,
    document: document!,
    terms,
    daysValidAfterDue: input.days_valid_after_due ?? DEFAULT_DAYS_VALID_AFTER_DUE,
  };
}
