import { type MtlsClient, PspRejected } from '../bcb/http.ts';
import { toPspAmount } from '../bcb/money.ts';
import type { BcbSettings } from '../config.ts';
import type { ProviderTransfer } from '../provider.ts';

const STATUS: Record<string, ProviderTransfer['status']> = {
  EM_PROCESSAMENTO: 'processing',
  REALIZADO: 'completed',
  NAO_REALIZADO: 'failed',
};

/** Maps a payout as Efí reports it (PUT answer, GET, or webhook item) to ours. */
export function efiTransfer(body: Record<string, unknown>): ProviderTransfer {
  const status = STATUS[String(body?.status)];
  if (!status) throw new PspRejected(502, { title: `unknown payout status ${String(body?.status)}` });
  const endToEndId = body.endToEndId ?? body.e2eId;
  return {
    status,
    providerRef: typeof body.idEnvio === 'string' ? body.idEnvio : undefined,
    endToEndId: typeof endToEndId === 'string' ? endToEndId : undefined,
    failureReason: status === 'failed' ? 'psp_refused:NAO_REALIZADO' : undefined,
  };
}

/**
 * Efí's Pix payout API (its own endpoints, not yet in the BCB standard): PUT /v3/gn/pix/:idEnvio
 * sends, idempotent on idEnvio; GET /v2/gn/pix/enviados/id-envio/:idEnvio says where it stands;
 * the outcome also arrives on the webhook of our key.
 */
export class EfiPayouts {
  constructor(
    private readonly http: MtlsClient,
    private readonly settings: BcbSettings,
  ) {}

  async send(input: { idEnvio: string; amountMinor: bigint; pixKey: string; description?: string | null }) {
    const body = {
      valor: toPspAmount(input.amountMinor),
      pagador: {
        chave: this.settings.pixKey,
        ...(input.description ? { infoPagador: input.description.slice(0, 140) } : {}),
      },
      favorecido: { chave: input.pixKey },
    };
    try {
      const response = await this.http.call(
        'PUT',
        `${this.settings.payoutBaseUrl}/v3/gn/pix/${input.idEnvio}`,
        body,
      );
      if (response.status === 404) throw new PspRejected(404, response.body ?? {});
      return efiTransfer(response.body);
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      // A repeated idEnvio is refused: the payout it names stands. Otherwise the refusal is final.
      const existing = await this.status(input.idEnvio);
      return existing.status === 'unknown'
        ? { status: 'failed' as const, failureReason: error.reason }
        : existing;
    }
  }

  async status(idEnvio: string): Promise<ProviderTransfer> {
    const response = await this.http.call(
      'GET',
      `${this.settings.payoutBaseUrl}/v2/gn/pix/enviados/id-envio/${idEnvio}`,
    );
    return response.status === 404 ? { status: 'unknown' } : efiTransfer(response.body);
  }
}
