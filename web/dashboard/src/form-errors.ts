/**
 * Where a form shows the API's refusal: next to each field `details[].field` names, else above the
 * form. The API names the field of its business refusals too (invalid_pix_key, insufficient_balance,
 * otp_invalid…), so no code needs a field of its own here; a refusal that names none is about no one
 * field (an RFQ execute the balance cannot cover: the request carries only the quote's id).
 */
import type { ApiError } from './api.ts';
import { errorMessage, fieldWords } from './error-messages.ts';

/**
 * The English issues of the validator and of the API's own refusals, in Portuguese when that is the
 * page's language.
 */
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
  [/^is required$/, 'é obrigatório'],
  [
    /^is required: two-factor authentication is on$/,
    'é obrigatório: a autenticação em dois fatores está ativa',
  ],
  [/^is wrong or has expired$/, 'está errado ou expirou'],
  [/^has already been used; wait for the next one$/, 'já foi usado; aguarde o próximo'],
  [/^is wrong or has already been used$/, 'está errado ou já foi usado'],
  [
    /^is not a valid CPF, CNPJ, e-mail, \+55 phone or EVP key$/,
    'não é uma chave CPF, CNPJ, e-mail, telefone +55 ou EVP válida',
  ],
  [/^is not a valid (\w+) key$/, 'não é uma chave $1 válida'],
  [/^not a valid CPF or CNPJ$/, 'não é um CPF ou CNPJ válido'],
  [/^must be BRL on PIX$/, 'deve ser BRL no PIX'],
  [/^must be more than the cash-in fee of (\d+)$/, 'deve ser maior que a tarifa de entrada de $1'],
  [
    /^is more than the available balance can cover, fee included$/,
    'é maior do que o saldo disponível cobre, com a tarifa',
  ],
  [/^is outside the range the ledger can hold$/, 'está fora do intervalo que o razão comporta'],
  [/^is not whitelisted on (\w+)$/, 'não está na lista de endereços permitidos em $1'],
  [/^not after from$/, 'não é posterior ao início'],
  [/^out of range$/, 'está fora do intervalo aceito'],
];

/** The issue in the page's language, or null when no Portuguese of it is known. */
const issueText = (issue: string, locale: string): string | null => {
  if (locale === 'en') return issue;
  const found = ISSUES_PT.find(([pattern]) => pattern.test(issue));
  return found ? issue.replace(found[0], found[1]) : null;
};

export const sentence = (text: string) => {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/**
 * The form's own name of a detail's field: `body.splits.0.share_bps` is the form's `splits`, and
 * `querystring.to` (the API's name for a query parameter) its `to`; a nested field is its two names
 * joined when the form has such a field (`body.debtor.name` is `debtor_name`, one input of an object
 * the form sends). A header is the field its value is typed in, named without `x-` and with
 * underscores (`headers.x-otp-code` is `otp_code`, as login's body field is).
 */
function formFieldOf(field: string, fieldNames: readonly string[]): string {
  const header = /^headers\.(?:x-)?(.+)$/.exec(field);
  if (header) return header[1]!.replaceAll('-', '_');
  const path = field.replace(/^(?:body|query|querystring)\./, '').split('.');
  const nested = path.slice(0, 2).join('_');
  return path.length > 1 && fieldNames.includes(nested) ? nested : (path[0] ?? '');
}

/**
 * The sentences to show next to the form's fields, by field name; empty when the refusal's details
 * name none of them (then its message goes above the form). `labels` name fields as the person sees
 * them.
 */
export function fieldErrors(
  error: ApiError,
  form: { fieldNames: readonly string[]; labels: Record<string, string>; locale: string },
): Record<string, string> {
  const { fieldNames, labels, locale } = form;
  const placed: Record<string, string> = {};
  for (const detail of error.details) {
    const name = formFieldOf(detail.field, fieldNames);
    if (!fieldNames.includes(name)) continue;
    const issue = issueText(detail.issue, locale);
    // An issue with no Portuguese reads as its code's message rather than half in English.
    placed[name] =
      issue === null
        ? errorMessage(error.code, [detail], 'pt-BR', labels[name])
        : sentence(`${labels[name] ?? fieldWords(detail.field)} ${issue}`);
  }
  return placed;
}
