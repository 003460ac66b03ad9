/**
 * What the person reads for each refusal, chosen by its code (never the server's English message):
 * one catalogue per language, keyed by every code of the API's catalogue and the page's own. A
 * message may name the field the refusal's details point at ({field}); a test fails when a code of
 * the server lacks a message in either language.
 */
import type { ApiErrorCode } from './api.ts';

export type Messages = Record<ApiErrorCode, string>;

export const ERRORS_EN: Messages = {
  invalid_request: 'Check {field}: it is not valid.',
  invalid_amount: 'The amount is not valid: enter more than zero, like 1,234.56.',
  pix_key_required: 'Enter a PIX key.',
  invalid_pix_key: 'The PIX key is not a valid CPF, CNPJ, e-mail, +55 phone or random key.',
  invalid_address: 'The address is not valid on this network.',
  unsupported_network: 'This network is not supported.',
  unsupported_currency: 'This currency is not supported here.',
  workspace_id_required: 'Choose a workspace first.',
  missing_credentials: 'Your session has ended. Log in again.',
  invalid_credentials: 'E-mail or password is wrong.',
  api_key_revoked: 'This API key was revoked.',
  otp_required: 'Enter the code from your authenticator app or a recovery code.',
  otp_invalid: 'The code is wrong, has expired or was already used.',
  environment_mismatch: 'This key belongs to the other environment.',
  production_not_enabled: 'Production is off for this workspace: enable it on the Security page.',
  forbidden: 'You are not allowed to do this.',
  settlement_key_required: 'Register a settlement key first: payouts are refused without one.',
  destination_not_whitelisted: 'This address is not on the crypto whitelist.',
  kyc_not_approved: 'The customer’s KYC is not approved yet.',
  not_found: 'Not found: it may have been removed, or belong to another environment.',
  request_timeout: 'The server took too long. Try again.',
  idempotency_key_reuse: 'This request was already sent with different data.',
  idempotency_key_in_use: 'This request is still being processed. Wait a moment.',
  conflict: 'This already exists or was changed meanwhile.',
  slug_taken: 'This address (slug) is taken. Choose another.',
  quote_already_executed: 'This quote was already executed.',
  payload_too_large: 'What you sent is too large.',
  insufficient_balance: 'The available balance cannot cover this amount, fee included.',
  quote_expired: 'This quote has expired. Ask for a new one.',
  subaccount_depth_exceeded: 'A sub-account cannot have sub-accounts of its own.',
  invalid_split: 'The splits are not valid: shares must add up to at most 100%.',
  invalid_state: 'This cannot be done in its current status.',
  amount_out_of_range:
    'The amount is outside what the payer authorised: not below the minimum, nor above their maximum.',
  rate_limited: 'Too many attempts. Wait a minute and try again.',
  headers_too_large: 'The request is too large.',
  internal_error: 'Something went wrong on our side. Try again in a moment.',
  provider_unavailable: 'The payment provider is unavailable. Try again in a moment.',
  database_unavailable: 'The service is briefly unavailable. Try again in a moment.',
  overloaded: 'The service is busy. Try again in a moment.',
  bad_response: 'The server answered something unexpected. Try again.',
  unknown_error: 'Something went wrong. Try again.',
  network: 'Could not reach the server. Check your connection and try again.',
};

export const ERRORS_PT: Messages = {
  invalid_request: 'Verifique {field}: o valor não é válido.',
  invalid_amount: 'O valor não é válido: digite mais que zero, como 1.234,56.',
  pix_key_required: 'Informe uma chave PIX.',
  invalid_pix_key: 'A chave PIX não é um CPF, CNPJ, e-mail, telefone +55 ou chave aleatória válido.',
  invalid_address: 'O endereço não é válido nesta rede.',
  unsupported_network: 'Esta rede não é suportada.',
  unsupported_currency: 'Esta moeda não é aceita aqui.',
  workspace_id_required: 'Escolha um espaço de trabalho antes.',
  missing_credentials: 'Sua sessão terminou. Entre de novo.',
  invalid_credentials: 'E-mail ou senha incorretos.',
  api_key_revoked: 'Esta chave de API foi revogada.',
  otp_required: 'Digite o código do seu app autenticador ou um código de recuperação.',
  otp_invalid: 'O código está errado, expirou ou já foi usado.',
  environment_mismatch: 'Esta chave é do outro ambiente.',
  production_not_enabled: 'A produção está desligada neste espaço: habilite-a na página Segurança.',
  forbidden: 'Você não tem permissão para fazer isto.',
  settlement_key_required: 'Cadastre antes uma chave de liquidação: sem ela os saques são recusados.',
  destination_not_whitelisted: 'Este endereço não está na lista de endereços cripto.',
  kyc_not_approved: 'O KYC do cliente ainda não foi aprovado.',
  not_found: 'Não encontrado: pode ter sido removido ou ser de outro ambiente.',
  request_timeout: 'O servidor demorou demais. Tente de novo.',
  idempotency_key_reuse: 'Esta requisição já foi enviada com outros dados.',
  idempotency_key_in_use: 'Esta requisição ainda está sendo processada. Aguarde um momento.',
  conflict: 'Isto já existe ou foi alterado nesse meio-tempo.',
  slug_taken: 'Este endereço (slug) já está em uso. Escolha outro.',
  quote_already_executed: 'Esta cotação já foi executada.',
  payload_too_large: 'O que você enviou é grande demais.',
  insufficient_balance: 'O saldo disponível não cobre este valor, com a tarifa.',
  quote_expired: 'Esta cotação expirou. Peça uma nova.',
  subaccount_depth_exceeded: 'Uma subconta não pode ter subcontas próprias.',
  invalid_split: 'As divisões não são válidas: as partes devem somar no máximo 100%.',
  invalid_state: 'Isto não pode ser feito na situação atual.',
  amount_out_of_range:
    'O valor está fora do que o pagador autorizou: nem abaixo do mínimo, nem acima do máximo dele.',
  rate_limited: 'Tentativas demais. Aguarde um minuto e tente de novo.',
  headers_too_large: 'A requisição é grande demais.',
  internal_error: 'Algo deu errado do nosso lado. Tente de novo em instantes.',
  provider_unavailable: 'O provedor de pagamentos está indisponível. Tente de novo em instantes.',
  database_unavailable: 'O serviço está indisponível por um momento. Tente de novo em instantes.',
  overloaded: 'O serviço está ocupado. Tente de novo em instantes.',
  bad_response: 'O servidor respondeu algo inesperado. Tente de novo.',
  unknown_error: 'Algo deu errado. Tente de novo.',
  network: 'Não foi possível falar com o servidor. Verifique sua conexão e tente de novo.',
};

/** A detail's field as a person reads it: `body.pix_key` is "pix key", `headers.x-otp-code` "otp code". */
export function fieldWords(field: string | undefined): string {
  if (!field) return '';
  const last = field.replace(/^(?:body|query|querystring|params|headers)\./, '').split('.')[0] ?? '';
  return last.replace(/^x-/, '').replace(/[-_]/g, ' ');
}

/**
 * The message of a refusal in `locale`; {field} is `label`, else the first detail's field (or, when
 * none is named, the request as a whole).
 */
export function errorMessage(
  code: string,
  details: readonly { field: string }[],
  locale: 'pt-BR' | 'en',
  label?: string,
): string {
  const messages = locale === 'en' ? ERRORS_EN : ERRORS_PT;
  const text = messages[code as ApiErrorCode] ?? messages.unknown_error;
  const field = label || fieldWords(details[0]?.field) || (locale === 'en' ? 'the form' : 'o formulário');
  return text.replace('{field}', field);
}
