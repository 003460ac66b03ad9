import type { Clock } from '../../../platform/environment.ts';
import { AppError } from '../../../platform/errors.ts';
import type { BcbSettings } from '../config.ts';
import { EfiInfractions } from '../efi/infractions.ts';
import { EfiPayouts } from '../efi/payouts.ts';
import type { ChargeState, Infraction, PixProvider, ProviderTransfer, TransferQuery } from '../provider.ts';
import { pspIdOf } from '../psp-id.ts';
import { ApiPix, type Cob } from './api-pix.ts';
import { CobvApi } from './api-pix-cobv.ts';
import { MtlsClient, PspRejected } from './http.ts';
import { PixAutomatico } from './pix-automatico.ts';

const CHARGE_STATUS: Record<Cob['status'], ChargeState['status']> = {
  ATIVA: 'active',
  CONCLUIDA: 'paid',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'removed',
  REMOVIDA_PELO_PSP: 'removed',
};

/**
 * A live PSP: charges and refunds on the BCB API Pix, payouts on Efí's payout API, one client
 * certificate and one OAuth2 client for both. Every id we send is the payment's (psp-id.ts).
 */
export class BcbPixProvider implements PixProvider {
  readonly name = 'bcb';
  private readonly api: ApiPix;
  private readonly payouts: EfiPayouts;
  private readonly infractions: EfiInfractions;
  /** Only with the receiver's account, which every cycle's charge must name. */
  readonly automatic?: PixAutomatico;
  readonly dueCharges: CobvApi;

  constructor(
    settings: BcbSettings,
    private readonly clock: Clock,
  ) {
    const http = new MtlsClient(settings, () => clock.now().getTime());
    this.api = new ApiPix(http, settings);
    this.payouts = new EfiPayouts(http, settings);
    this.infractions = new EfiInfractions(http, settings);
    if (settings.receiver)
      this.automatic = new PixAutomatico(http, settings.baseUrl, settings.receiver, {
        url: settings.webhookUrl,
        secret: settings.webhookSecret,
      });
    this.dueCharges = new CobvApi(http, settings);
  }

  async createCharge(input: {
    paymentId: string;
    amountMinor: bigint;
    description?: string | null;
    expiresAt: Date;
  }) {
    const seconds = Math.ceil((input.expiresAt.getTime() - this.clock.now().getTime()) / 1000);
    const txid = pspIdOf(input.paymentId);
    let cob: Cob;
    try {
      cob = await this.api.createCob({
        txid,
        amountMinor: input.amountMinor,
        expiresInSeconds: Math.max(1, seconds),
        description: input.description,
      });
    } catch (error) {
      if (error instanceof PspRejected)
        throw new AppError('provider_unavailable', `The PIX provider refused the charge: ${error.message}.`);
      throw error;
    }
    if (!cob.pixCopiaECola)
      throw new AppError('provider_unavailable', 'The PIX provider returned no BR Code.');
    return { txid, brCode: cob.pixCopiaECola, providerRef: cob.locId ?? txid };
  }

  sendPayout(input: { paymentId: string; amountMinor: bigint; pixKey: string; description?: string | null }) {
    return this.payouts.send({ ...input, idEnvio: pspIdOf(input.paymentId) });
  }

  async sendRefund(input: { paymentId: string; originalEndToEndId: string | null; amountMinor: bigint }) {
    if (!input.originalEndToEndId)
      return { status: 'failed' as const, failureReason: 'original_end_to_end_id_missing' };
    return this.api.requestRefund(input.originalEndToEndId, pspIdOf(input.paymentId), input.amountMinor);
  }

  async getStatus(paymentId: string, transfer?: TransferQuery): Promise<ProviderTransfer> {
    if (transfer?.direction !== 'refund') return this.payouts.status(pspIdOf(paymentId));
    if (!transfer.originalEndToEndId) return { status: 'unknown' };
    return this.api.getRefund(transfer.originalEndToEndId, pspIdOf(paymentId));
  }

  /** A txid of ours is a cob's or a cobv's: a due-date charge answers GET /cobv/{txid} instead. */
  async getCharge(txid: string): Promise<ChargeState | undefined> {
    const cob = await this.api.getCob(txid);
    if (!cob) return this.dueCharges.get(txid);
    return (
      cob && {
        status: CHARGE_STATUS[cob.status] ?? 'active',
        amountMinor: cob.amountMinor,
        payments: cob.pix,
      }
    );
  }

  getReceivedPix(endToEndId: string) {
    return this.api.getPix(endToEndId);
  }

  listReceived(window: { from: Date; to: Date }) {
    return this.api.listPix(window.from, window.to);
  }

  registerWebhook(): Promise<void> {
    return this.api.registerWebhook();
  }

  listInfractions(window: { from: Date; to: Date }): Promise<Infraction[]> {
    return this.infractions.list(window);
  }

  async submitDefense(input: { infractionId: string; text: string; evidence: readonly string[] }) {
    try {
      await this.infractions.defend(input);
    } catch (error) {
      // A refusal is the PSP's word on this defense (closed, past its deadline): the merchant's to read.
      if (error instanceof PspRejected)
        throw new AppError('invalid_state', `The PIX provider refused the defense: ${error.message}.`);
      throw error;
    }
  }
}
