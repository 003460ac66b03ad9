/**
 * docs/guides/errors.md, generated from the error table (src/platform/errors.ts ERROR_STATUS) and
 * docs/errors.md (when each code happens), with what an integrator should do about each. A code
 * without advice here fails the typecheck; one missing from docs/errors.md fails the generation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_STATUS, type ErrorCode } from '../src/platform/errors.ts';

const root = path.resolve(import.meta.dirname, '..');
export const ERRORS_GUIDE_FILE = path.join(root, 'docs/guides/errors.md');

const FIX_REQUEST = 'Fix the request (see `details`); retrying it unchanged gets the same answer.';

const ADVICE: Record<ErrorCode, string> = {
  invalid_request: FIX_REQUEST,
  invalid_amount: 'Send a positive integer string of minor units (`"2500"` is R$ 25.00), within the limits.',
  pix_key_required: 'Send `pix_key`.',
  invalid_pix_key:
    'Check the key: CPF/CNPJ with valid check digits, e-mail, `+55` phone or a lower-case EVP.',
  invalid_address:
    'Check the address belongs to the network you named (EIP-55 EVM, `T…` Tron, base58 Solana).',
  unsupported_network: 'Use one of the listed networks.',
  unsupported_currency: 'Use BRL, USDT or USDC, and BRL on PIX.',
  workspace_id_required: 'Send `X-Workspace-Id` with your workspace id (the SDK does from `workspaceId`).',
  missing_credentials: 'Send `Authorization: Bearer <key>`.',
  invalid_credentials: 'Check the key and the workspace belong together; sessions expire, log in again.',
  api_key_revoked: 'Create a new key; a live key used on a sandbox path is revoked for your safety.',
  otp_required: 'Send the current 2FA code (`otp_code` on login, `X-OTP-Code` on a crypto send).',
  otp_invalid: 'Send the current code from the authenticator; repeated failures are throttled.',
  environment_mismatch: 'Use a live key on `/v1/live/…` and a sandbox key on `/v1/sandbox/…`.',
  production_not_enabled: 'The owner turns production on (`PATCH /v1/live/workspace`); see going live.',
  forbidden:
    'Use a caller allowed here: the dashboard session for owner routes, a workspace-level key for workspace routes.',
  settlement_key_required: 'The owner registers the settlement key (`PUT /v1/{env}/settlement-key`) first.',
  destination_not_whitelisted:
    'The owner whitelists the address on that network, or sends from the dashboard.',
  kyc_not_approved: 'Open a KYC case for the party and wait for its approval (`kyc.updated` webhook).',
  not_found: 'Check the id, the environment in the path and the workspace; ids of others are never revealed.',
  request_timeout: 'Send the whole request promptly; retry with the same `Idempotency-Key`.',
  idempotency_key_reuse: 'Use a new key for a different request; a key stands for one operation.',
  idempotency_key_in_use: 'Wait for the first request with this key, then retry: it replays its answer.',
  conflict: 'The resource already exists in that state: read it instead of creating it again.',
  slug_taken: 'Choose another slug (or leave it out for a random one).',
  quote_already_executed: 'Read the quote (`executed_payment_id`); ask a new quote for another conversion.',
  payload_too_large: 'Keep the body under 1 MiB.',
  insufficient_balance: 'Fund the balance (amount plus fee) or send less; nothing was held.',
  quote_expired: 'Ask for a new quote and execute it within its validity.',
  subaccount_depth_exceeded: 'Create sub-accounts from the parent workspace only.',
  invalid_split: 'At most 20 distinct parties of the workspace, each 1..10000 bps, 10000 in all.',
  invalid_state: 'Read the resource: its status does not allow this any more (or yet).',
  amount_out_of_range:
    "Send an amount between the subscription's minimum_minor and the payer's maximum (payer_maximum_minor, when known).",
  rate_limited: 'Wait for `Retry-After` seconds (the SDK does, with backoff) and spread your calls.',
  headers_too_large: 'Keep request headers under 16 KB.',
  internal_error:
    'Retry later with the same `Idempotency-Key`; if it persists, quote `X-Request-Id` to support.',
  provider_unavailable:
    'Retry later with the same `Idempotency-Key` (the SDK retries 503 with backoff); nothing was moved.',
  database_unavailable: 'Retry with the same `Idempotency-Key` after `Retry-After` (the SDK does).',
  overloaded:
    'Retry with the same `Idempotency-Key` after `Retry-After` (the SDK does), and spread your writes.',
};

const SDK_CLASS: Record<number, string> = {
  400: 'InvalidRequestError',
  401: 'AuthenticationError',
  403: 'PermissionError',
  404: 'NotFoundError',
  409: 'ConflictError',
  422: 'UnprocessableError',
  429: 'RateLimitError',
};

/** The "when" column of docs/errors.md, by code. */
function whenByCode(): Map<string, string> {
  const rows = readFileSync(path.join(root, 'docs/errors.md'), 'utf8').matchAll(
    /^\| `([a-z_]+)` \| (\d{3}) \| (.*) \|$/gm,
  );
  return new Map([...rows].map((row) => [row[1]!, row[3]!.replace(/\*ours\*: /, '')]));
}

export function errorsGuide(): string {
  const when = whenByCode();
  const rows = (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).map(([code, status]) => {
    const cause = when.get(code);
    if (!cause) throw new Error(`docs/errors.md has no row for ${code}`);
    const sdkClass = SDK_CLASS[status] ?? (status >= 500 ? 'ServerError' : 'LastroError');
    return `| \`${code}\` | ${status} | \`${sdkClass}\` | ${cause} | ${ADVICE[code]} |`;
  });
  return `<!-- Generated by \`npm run openapi\` from src/platform/errors.ts and docs/errors.md; do not edit. -->
# Errors

Em português: [Erros](pt-BR/errors.md)

Every error answers \`{"error": "<code>", "message": "<sentence>"}\`, with
\`details: [{field, issue}]\` on validation failures and on refusals about one field of the request
(\`invalid_pix_key\` names \`body.pix_key\`, \`insufficient_balance\` on a payout \`body.amount_minor\`),
and an \`X-Request-Id\` header to quote to support. Branch on \`error\` (the code), never on the message. The SDK throws a \`LastroError\`
subclass with \`code\`, \`status\`, \`requestId\`, \`message\` and \`details\`; 429 and 503 are retried
before they reach you ([idempotency and retries](idempotency.md)).

\`details[].field\` is the field's dotted path in the request (\`body.amount_minor\`, \`body.payer.name\`,
\`querystring.cursor\`), one detail per field. A body field the route does not know is refused, never
dropped: \`{"field": "body.amount", "issue": "unknown field"}\` for each one (a refund's \`amount\`
instead of \`amount_minor\` would otherwise refund the whole charge). \`metadata\` takes your own
keys within bounds: at most 50 keys of 1 to 40 characters, each value a string of at most 500
characters or at most 500 characters of JSON nesting at most 3 levels. Names of only spaces are
refused like empty ones.

\`\`\`ts
import { Lastro, LastroError, UnprocessableError } from '@lastro/sdk';

const lastro = new Lastro({ apiKey: process.env.LASTRO_KEY!, workspaceId: process.env.LASTRO_WORKSPACE!, baseUrl: process.env.LASTRO_URL });
try {
  await lastro.post('/v1/{env}/rfq/quote', {
    body: { base_amount_minor: '999999999999', base_currency: 'BRL', quote_currency: 'USDT' },
  }).then((quote) => lastro.post('/v1/{env}/rfq/execute', { body: { quote_id: quote.id } }));
} catch (error) {
  if (!(error instanceof LastroError)) throw error;
  console.log(error instanceof UnprocessableError, error.code, error.status, error.requestId);
  // → true insufficient_balance 422 <request id>
  if (error.code !== 'insufficient_balance') process.exit(1);
}
\`\`\`

The same refusal over HTTP:

\`\`\`sh
curl -sS -D headers.txt -X POST "$LASTRO_URL/v1/sandbox/pix/payouts" \\
  -H "authorization: Bearer $LASTRO_KEY" -H "x-workspace-id: $LASTRO_WORKSPACE" \\
  -H 'content-type: application/json' -d '{"amount_minor":"0","pix_key":"52998224725"}' | jq -c .
grep -i '^x-request-id' headers.txt
# → {"error":"invalid_amount","message":"…","details":[…]} and the request id
\`\`\`

| code | status | SDK class | when | what to do |
|---|---|---|---|---|
${rows.join('\n')}
`;
}
