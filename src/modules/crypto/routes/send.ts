import type { FastifyRequest } from 'fastify';
import { auditAction } from '../../../platform/audit.ts';
import { ACTION_CODES } from '../../../platform/auth/login-throttle.ts';
import type { Deps } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { answerIsStored } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { requireOtp, twoFactorIsOn } from '../../owner/service.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { OtpHeaders, SendBody } from '../schemas.ts';
import { sendCrypto } from '../send.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/crypto/send',
    {
      config: {
        auth: 'any',
        subaccount: true,
        moneyMoving: true,
        errors: [
          'otp_required',
          'otp_invalid',
          'unsupported_network',
          'unsupported_currency',
          'invalid_address',
          'not_found',
          'invalid_state',
          'destination_not_whitelisted',
          'insufficient_balance',
          'provider_unavailable',
          'kyc_not_approved',
        ],
      },
      schema: {
        tags: ['crypto'],
        summary: "Send stablecoins from one of the party's wallets; amount + network fee are debited at once",
        description:
          'Checks, in order: OTP of a 2FA dashboard session (401 otp_required / otp_invalid; an API key is never asked), body (400 invalid_amount, unsupported_network, unsupported_currency, invalid_address, invalid_request for from_address), party (403/404), watch-only wallet (422 invalid_state), whitelist for an API key (403 destination_not_whitelisted), balance (422 insufficient_balance), provider (503 provider_unavailable). Send Idempotency-Key: a retry never pays twice, and a re-send of a send that went through replays its answer without a new one-time code (the first request spent it).',
        params: EnvParams,
        headers: OtpHeaders,
        body: SendBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            kind: 'crypto_send',
            status: 'processing',
            amount_minor: '25000000',
            currency: 'USDT',
            fee_minor: '100000',
            description: 'Supplier invoice 88',
            provider_ref: null,
            pix_qr_code: null,
            pix_tx_id: null,
            pix_txid: null,
            to_address: '0x52908400098527886E0F7030069857D2E4169EE7',
            from_address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
            network: 'polygon',
            metadata: {},
            idempotency_key: 'invoice-88',
            counterparty: null,
            wallet_id: '0194f410-8d9e-7f0a-9b1c-2d3e4f5a6b7c',
            expires_at: null,
            completed_at: null,
          },
        }),
      },
      // The second factor is part of authenticating a 2FA session for this route, so it is checked
      // before the body says anything.
      preValidation: (request) => checkSendOtp(app, deps, request),
    },
    async (request) => ({
      data: await request.write((tx) => sendCrypto(tx, contextOf(deps, request), request.body)),
    }),
  );
}

/** A send's one-time code travels in a header, named as validation names headers. */
const SEND_OTP = { field: 'headers.x-otp-code', name: 'X-OTP-Code' };

/**
 * X-OTP-Code of a 2FA dashboard session. Wrong codes are throttled like failed logins (per user and
 * per address, slot claimed first, on counters of their own so they never hold up anyone's login),
 * and each one is audited: a wrong code on a session that is already logged in may be a stolen one.
 */
async function checkSendOtp(app: App, deps: Deps, request: FastifyRequest): Promise<void> {
  const caller = request.caller;
  if (caller?.type !== 'session' || !caller.userId) return;
  // The session is cached per process and may predate a 2FA turned on elsewhere: "off" is read again.
  if (!caller.twoFactor && !(await twoFactorIsOn(deps, caller.userId))) return;
  // A re-send of a send that went through is answered from its key: its code was spent by the first.
  if (await answerIsStored(deps, request)) return;
  const code = request.headers['x-otp-code'];
  const userId = caller.userId;
  try {
    await app.loginThrottle.guard(
      userId,
      request.ip,
      () => requireOtp(deps, userId, typeof code === 'string' ? code : undefined, SEND_OTP),
      ACTION_CODES,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'otp_invalid') {
      // Not contextOf: a malformed Idempotency-Key must not stop the refusal from being recorded.
      const ctx = { deps, caller, requestId: request.id, ip: request.ip };
      await auditAction(deps.db, ctx, 'crypto.send_otp_failed', { type: 'user', id: userId });
    }
    throw error;
  }
}
