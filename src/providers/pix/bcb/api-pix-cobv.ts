/**
 * Charges with a due date on the BCB's API Pix (github.com/bacen/pix-api, openapi.yaml v2.9.0,
 * tags CobV and LoteCobV): PUT /cobv/{txid} with CobVSolicitada (calendario.dataDeVencimento and
 * validadeAposVencimento, devedor, valor.original with multa, juros, abatimento and desconto by
 * modalidade and valorPerc), GET /cobv/{txid} (CobVCompleta, its pix[] with what was paid), PUT
 * /lotecobv/{id} (202, created in the background) and GET /lotecobv/{id} (each cobsv[] item
 * EM_PROCESSAMENTO, CRIADA or NEGADA). PATCH /cobv/{txid} takes a CobVRevisada: the fields to
 * revise (calendario, devedor, valor, solicitacaoPagador), or status REMOVIDA_PELO_USUARIO_RECEBEDOR
 * alone; the PSP refuses it with CobVOperacaoInvalida (400) once the cobv is not ATIVA, and answers
 * the cobv with revisao + 1.
 */
import { AppError } from '../../../platform/errors.ts';
import type { BcbSettings } from '../config.ts';
import type {
  DueBatchItem,
  DueChargeApi,
  DueChargePart,
  DueChargeRevision,
  IssuedDueCharge,
  NewDueCharge,
} from '../due-charge-api.ts';
import { pspIdOf } from '../psp-id.ts';
import { receivedPixOf } from './api-pix.ts';
import { type MtlsClient, PspRejected } from './http.ts';
import { fromPspAmount, toPspAmount } from './money.ts';

const COBV_STATUS = {
  ATIVA: 'active',
  CONCLUIDA: 'paid',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'removed',
  REMOVIDA_PELO_PSP: 'removed',
} as const;
const LOTE_STATUS: Record<string, DueBatchItem['status']> = {
  EM_PROCESSAMENTO: 'processing',
  CRIADA: 'created',
  NEGADA: 'denied',
};

/** valorPerc: a value in reais with two places, or the percentage as written. */
const valorPerc = (part: { value_minor?: string; percent?: string }) =>
  part.value_minor !== undefined ? toPspAmount(BigInt(part.value_minor)) : (part.percent ?? '0.00');

function partBody(part: DueChargePart) {
  if (part.dates)
    return {
      modalidade: part.modality,
      descontoDataFixa: part.dates.map((entry) => ({ data: entry.date, valorPerc: valorPerc(entry) })),
    };
  return { modalidade: part.modality, valorPerc: valorPerc(part) };
}

/** The CobVSolicitada of a charge. */
export function cobvBody(input: NewDueCharge, pixKey: string) {
  const { fine, interest, rebate, discount } = input.terms;
  return {
    calendario: { dataDeVencimento: input.dueDate, validadeAposVencimento: input.daysValidAfterDue },
    devedor: {
      [input.debtor.documentType]: input.debtor.document,
      nome: input.debtor.name.slice(0, 140),
    },
    valor: {
      original: toPspAmount(input.amountMinor),
      ...(fine ? { multa: partBody(fine) } : {}),
      ...(interest ? { juros: partBody(interest) } : {}),
      ...(rebate ? { abatimento: partBody(rebate) } : {}),
      ...(discount ? { desconto: partBody(discount) } : {}),
    },
    chave: pixKey,
    ...(input.description ? { solicitacaoPagador: input.description.slice(0, 140) } : {}),
  };
}

function cobvOf(body: Record<string, unknown>) {
  const pix = Array.isArray(body.pix) ? (body.pix as Record<string, unknown>[]) : [];
  const loc = body.loc as { id?: unknown } | undefined;
  return {
    status: COBV_STATUS[body.status as keyof typeof COBV_STATUS] ?? 'active',
    amountMinor: fromPspAmount((body.valor as { original?: unknown } | undefined)?.original),
    payments: pix.map(receivedPixOf),
    brCode: typeof body.pixCopiaECola === 'string' ? body.pixCopiaECola : undefined,
    locId: loc?.id === undefined ? undefined : String(loc.id),
  };
}

export class CobvApi implements DueChargeApi {
  constructor(
    private readonly http: MtlsClient,
    private readonly settings: BcbSettings,
  ) {}

  /** A PSP that refuses a txid it already has is asked for that cobv, which stands when it is ours. */
  async create(input: NewDueCharge): Promise<IssuedDueCharge> {
    const txid = pspIdOf(input.paymentId);
    let issued: ReturnType<typeof cobvOf>;
    try {
      const response = await this.http.call(
        'PUT',
        this.url(`/cobv/${txid}`),
        cobvBody(input, this.settings.pixKey),
      );
      if (response.status === 404) throw new PspRejected(404, response.body ?? {});
      issued = cobvOf(response.body);
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      const existing = await this.get(txid);
      if (existing?.amountMinor !== input.amountMinor) throw error;
      issued = { ...existing, brCode: existing.brCode, locId: existing.locId };
    }
    if (!issued.brCode) throw new PspRejected(502, { title: 'the PSP returned no BR Code' });
    return { txid, brCode: issued.brCode, providerRef: issued.locId ?? txid };
  }

  async get(txid: string) {
    const response = await this.http.call('GET', this.url(`/cobv/${txid}`));
    return response.status === 404 ? undefined : cobvOf(response.body);
  }

  async revise(txid: string, revision: DueChargeRevision): Promise<void> {
    // The key is the cobv's own and does not change: a revision leaves chave out.
    const body = revision.remove
      ? { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }
      : (({ chave: _key, ...revised }) => revised)(cobvBody(revision.charge, this.settings.pixKey));
    try {
      const response = await this.http.call('PATCH', this.url(`/cobv/${txid}`), body);
      if (response.status === 404) throw new PspRejected(404, response.body ?? {});
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      // A removal the PSP made before our books could follow (a crash, a lost answer) is retried by
      // the caller: the cobv already removed is the outcome asked for, not a refusal.
      if (revision.remove && (await this.get(txid))?.status === 'removed') return;
      throw new AppError(
        'invalid_state',
        `The PSP refused to revise the charge (${error.problem.title ?? error.status}): it is no longer active there.`,
      );
    }
  }

  async createBatch(batchId: string, description: string, items: NewDueCharge[]): Promise<void> {
    const cobsv = items.map((item) => ({
      txid: pspIdOf(item.paymentId),
      ...cobvBody(item, this.settings.pixKey),
    }));
    const response = await this.http.call('PUT', this.url(`/lotecobv/${batchId}`), {
      descricao: description,
      cobsv,
    });
    if (response.status === 404) throw new PspRejected(404, response.body ?? {});
  }

  async getBatch(batchId: string): Promise<DueBatchItem[]> {
    const response = await this.http.call('GET', this.url(`/lotecobv/${batchId}`));
    if (response.status === 404) return [];
    const items = Array.isArray(response.body?.cobsv)
      ? (response.body.cobsv as Record<string, unknown>[])
      : [];
    return items.map((item) => ({
      txid: String(item.txid),
      status: LOTE_STATUS[String(item.status)] ?? 'processing',
      ...(item.problema ? { problem: String((item.problema as { title?: unknown }).title ?? 'NEGADA') } : {}),
    }));
  }

  private url(path: string): string {
    return `${this.settings.baseUrl}${path}`;
  }
}
