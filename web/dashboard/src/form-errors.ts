/**
 * Where a form shows the API's refusal: next to each field `details[].field` names, else next to the
 * field its code concerns, else above the form.
 */
import type { ApiError, ApiErrorCode } from './api.ts';

/**
 * The field of a refusal whose `details` name none: the API's business rules that answer with a
 * message only. Codes the API always sends with `details` (invalid_address, unsupported_network,
 * slug_taken, invalid_split) are placed by their details and need no line here.
 */
const FIELD_OF_CODE: Partial<Record<ApiErrorCode, readonly string[]>> = {
  invalid_amount: ['amount_minor', 'base_amount_minor'],
  insufficient_balance: ['amount_minor', 'base_amount_minor'],
  invalid_pix_key: ['pix_key'],
  pix_key_required: ['pix_key'],
  unsupported_currency: ['currency'],
  otp_invalid: ['otp_code', 'otp'],
  otp_required: ['otp_code', 'otp'],
  destination_not_whitelisted: ['to_address'],
};

/** The validator's English phrases, in Portuguese when that is the page's language. */
const ISSUES_PT: [RegExp, string][] = [
  [/^must NOT have fewer than (\d+) characters$/, 'deve ter pelo menos $1 caracteres'],
  [/^must NOT have more than (\d+) characters$/, 'deve ter no máximo $1 caracteres'],
  [/^must match format "email"$/, 'deve ser um e-mail válido'],
  [/^must match format "uri"$/, 'deve ser uma URL válida'],
  [/^must match pattern .*$/, 'está em um formato inválido'],
  [/^must be equal to one of the allowed values$/, 'deve ser um dos valores permitidos'],
  [/^must be one of: (.*)$/, 'deve ser um destes: $1'],
  [/^must not be blank$/, 'não pode ficar em branco'],
  [/^unknown field$/, 'campo desconhecido'],
];

const issueText = (issue: string, locale: string) => {
  if (locale === 'en') return issue;
  const found = ISSUES_PT.find(([pattern]) => pattern.test(issue));
  return found ? issue.replace(found[0], found[1]) : issue;
};

export const sentence = (text: string) => {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** The form's own name of a detail's field: `body.splits.0.share_bps` is the form's `splits`. */
const formFieldOf = (field: string) => field.replace(/^body\.|^query\./, '').split('.')[0] ?? '';

/**
 * The sentences to show next to the form's fields, by field name; empty when the refusal concerns
 * none of them (then its message goes above the form). `labels` name fields as the person sees them.
 */
export function fieldErrors(
  error: ApiError,
  form: { fieldNames: readonly string[]; labels: Record<string, string>; locale: string },
): Record<string, string> {
  const { fieldNames, labels, locale } = form;
  const placed: Record<string, string> = {};
  for (const detail of error.details) {
    const name = formFieldOf(detail.field);
    if (fieldNames.includes(name))
      placed[name] = sentence(`${labels[name] ?? name} ${issueText(detail.issue, locale)}`);
  }
  if (Object.keys(placed).length) return placed;
  const byCode = FIELD_OF_CODE[error.code]?.find((name) => fieldNames.includes(name));
  return byCode ? { [byCode]: sentence(error.message) } : {};
}
