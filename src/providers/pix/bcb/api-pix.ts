import type { BcbSettings } from '../config.ts';
import type { ProviderTransfer, PspReturn, ReceivedPix } from '../provider.ts';
import { type MtlsClient, PspRejected } from './http.ts';
import { fromPspAmount, toPspAmount } from './money.ts';

/** A cob (immediate charge) as the API Pix returns it: what we read of it. */
export interface Cob {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  amountMinor: bigint | undefined;
  pixCopiaECola: string | undefined;
  locId: string | undefined;
  /** Pix received on it, with their devoluções. */
  pix: ReceivedPix[];
}

const REFUND_STATUS: Record<string, ProviderTransfer['status']> = {
  EM_PROCESSAMENTO: 'processing',
  DEVOLVIDO: 'completed',
  NAO_REALIZADO: 'failed',
};

/** Items per page of GET /pix (the standard allows up to 1000), and a bound on the pages read. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10_000;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const named = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * A devolução as the API Pix writes it; natureza defaults to ORIGINAL, as the standard says. The
 * standard's Devolucao carries an id and the rtrId (the return's own end-to-end id, unique on the
 * rail: github.com/bacen/pix-api, openapi.yaml, Devolucao): one without an id is keyed by its rtrId,
 * and one with neither keeps an empty id, which the MED path refuses to apply (it is set aside).
 */
function returnOf(body: Record<string, unknown>): PspReturn {
  return {
    id: named(body.id) ?? named(body.rtrId) ?? '',
    rtrId: text(body.rtrId),
    amountMinor: fromPspAmount(body.valor),
    natureza: text(body.natureza) ?? 'ORIGINAL',
    status: REFUND_STATUS[String(body.status)] ?? 'unknown',
  };
}

/** A Pix item of GET /pix/{e2eid}, of a cob's pix[] or of a notification. */
export function receivedPixOf(item: Record<string, unknown>): ReceivedPix {
  const returns = Array.isArray(item.devolucoes) ? (item.devolucoes as Record<string, unknown>[]) : [];
  return {
    endToEndId: String(item.endToEndId),
    txid: text(item.txid),
    amountMinor: fromPspAmount(item.valor),
    payerInfo: text(item.infoPagador),
    receivedAt: typeof item.horario === 'string' ? new Date(item.horario) : undefined,
    returns: returns.filter((r) => typeof r === 'object' && r !== null).map(returnOf),
  };
}

function cobOf(body: Record<string, unknown>): Cob {
  const pix = Array.isArray(body.pix) ? (body.pix as Record<string, unknown>[]) : [];
  const loc = body.loc as { id?: unknown } | undefined;
  return {
    txid: String(body.txid),
    status: body.status as Cob['status'],
    amountMinor: fromPspAmount((body.valor as { original?: unknown } | undefined)?.original),
    pixCopiaECola: typeof body.pixCopiaECola === 'string' ? body.pixCopiaECola : undefined,
    locId: loc?.id === undefined ? undefined : String(loc.id),
    pix: pix.map(receivedPixOf),
  };
}

/** The Banco Central's API Pix (v2): cob, devolução and webhook, over the PSP's mutual TLS. */
export class ApiPix {
  constructor(
    private readonly http: MtlsClient,
    private readonly settings: BcbSettings,
  ) {}

  /**
   * PUT /cob/{txid}: our txid makes it idempotent. A PSP that refuses a txid it already has is
   * asked for that cob, which stands when it is the same charge.
   */
  async createCob(input: {
    txid: string;
    amountMinor: bigint;
    expiresInSeconds: number;
    description?: string | null;
  }) {
    const body = {
      calendario: { expiracao: input.expiresInSeconds },
      valor: { original: toPspAmount(input.amountMinor) },
      chave: this.settings.pixKey,
      ...(input.description ? { solicitacaoPagador: input.description.slice(0, 140) } : {}),
    };
    try {
      const response = await this.http.call('PUT', this.url(`/cob/${input.txid}`), body);
      if (response.status === 404) throw new PspRejected(404, response.body ?? {});
      return cobOf(response.body);
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      const existing = await this.getCob(input.txid);
      if (existing?.amountMinor === input.amountMinor) return existing;
      throw error;
    }
  }

  async getCob(txid: string): Promise<Cob | undefined> {
    const response = await this.http.call('GET', this.url(`/cob/${txid}`));
    return response.status === 404 ? undefined : cobOf(response.body);
  }

  /** GET /pix/{e2eid}: a PIX received on our key, its devoluções included (ours and the PSP's). */
  async getPix(endToEndId: string): Promise<ReceivedPix | undefined> {
    const response = await this.http.call('GET', this.url(`/pix/${encodeURIComponent(endToEndId)}`));
    return response.status === 404 ? undefined : receivedPixOf(response.body);
  }

  /**
   * GET /pix?inicio&fim: the PIX received in a window, page by page (paginacao.paginaAtual from 0
   * until quantidadeDePaginas), as the BCB's API Pix specifies it (github.com/bacen/pix-api,
   * openapi.yaml, "Pix" tag, PixConsultados). A page that cannot be read throws: a partial list would
   * report missing PIX that are not missing.
   */
  async listPix(from: Date, to: Date): Promise<ReceivedPix[]> {
    const found: ReceivedPix[] = [];
    for (let page = 0, pages = 1; page < pages && page < MAX_PAGES; page++) {
      const query = new URLSearchParams({
        inicio: from.toISOString(),
        fim: to.toISOString(),
        'paginacao.paginaAtual': String(page),
        'paginacao.itensPorPagina': String(PAGE_SIZE),
      });
      const response = await this.http.call('GET', this.url(`/pix?${query}`));
      if (response.status !== 200) throw new PspRejected(response.status, response.body ?? {});
      const paging = (response.body?.parametros as { paginacao?: Record<string, unknown> } | undefined)
        ?.paginacao;
      pages = Number(paging?.quantidadeDePaginas ?? 1);
      const items = Array.isArray(response.body?.pix) ? (response.body.pix as Record<string, unknown>[]) : [];
      found.push(...items.map(receivedPixOf));
    }
    return found;
  }

  /** PUT /pix/{e2eid}/devolucao/{id}: idempotent on our id, asked again on a refusal like a cob. */
  async requestRefund(endToEndId: string, id: string, amountMinor: bigint): Promise<ProviderTransfer> {
    try {
      const response = await this.http.call('PUT', this.url(`/pix/${endToEndId}/devolucao/${id}`), {
        valor: toPspAmount(amountMinor),
      });
      if (response.status === 404) return { status: 'failed', failureReason: 'psp_rejected:pix_not_found' };
      return this.refundOf(response.body);
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      const existing = await this.getRefund(endToEndId, id);
      return existing.status === 'unknown' ? { status: 'failed', failureReason: error.reason } : existing;
    }
  }

  async getRefund(endToEndId: string, id: string): Promise<ProviderTransfer> {
    const response = await this.http.call('GET', this.url(`/pix/${endToEndId}/devolucao/${id}`));
    return response.status === 404 ? { status: 'unknown' } : this.refundOf(response.body);
  }

  /** PUT /webhook/{chave}: where the PSP POSTs (appending /pix) what arrives on our key. */
  async registerWebhook(): Promise<void> {
    const url = new URL(this.settings.webhookUrl);
    // Efí's documented alternative to mutual TLS on our side: the secret rides in the URL, and the
    // /pix the PSP appends lands in a throwaway parameter.
    url.search = `hmac=${this.settings.webhookSecret}&ignorar=`;
    await this.http.call(
      'PUT',
      this.url(`/webhook/${encodeURIComponent(this.settings.pixKey)}`),
      { webhookUrl: url.toString() },
      { 'x-skip-mtls-checking': 'true' },
    );
  }

  private refundOf(body: Record<string, unknown>): ProviderTransfer {
    const status = REFUND_STATUS[String(body?.status)];
    if (!status) throw new PspRejected(502, { title: `unknown devolução status ${String(body?.status)}` });
    return {
      status,
      providerRef: typeof body.rtrId === 'string' ? body.rtrId : undefined,
      endToEndId: typeof body.rtrId === 'string' ? body.rtrId : undefined,
      failureReason:
        status === 'failed'
          ? `psp_refused:${String(body.motivo ?? 'NAO_REALIZADO').slice(0, 80)}`
          : undefined,
    };
  }

  private url(path: string): string {
    return `${this.settings.baseUrl}${path}`;
  }
}
