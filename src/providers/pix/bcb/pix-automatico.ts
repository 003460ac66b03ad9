/**
 * Pix Automático on the BCB's API Pix (github.com/bacen/pix-api, openapi.yaml v2.9.0, tags Rec and
 * CobR): POST /rec creates a recurrence the payer authorises at their own PSP (RecStatus CRIADA →
 * APROVADA, or REJEITADA, EXPIRADA, CANCELADA); PUT /cobr/{txid} sends one cycle's charge (CobRStatus
 * CRIADA → ATIVA → CONCLUIDA, or EXPIRADA, REJEITADA, CANCELADA); PATCH /rec/{idRec} with status
 * CANCELADA ends it from the receiver's side, PATCH /cobr/{txid} with status CANCELADA withdraws one
 * cycle's charge. encerramento.cancelamento.solicitante says who cancelled. POST
 * /cobr/{txid}/retentativa/{data} asks for a new attempt after a failed one, when the recurrence's
 * politicaRetentativa is PERMITE_3R_7D (tentativas lists each attempt: SOLICITADA, AGENDADA, PAGA,
 * REJEITADA, EXPIRADA, CANCELADA), each rejected one with its rejeicao (codigo: the SPI's code, such
 * as AM02 or AC06; descricao), and a REJEITADA or CANCELADA cobr says why in encerramento. PUT
 * /webhookrec and PUT /webhookcobr register where the PSP POSTs {"recs": [...]} to {webhookUrl}/rec
 * and {"cobsr": [...]} to {webhookUrl}/cobr (callbacks rec and cobr; RecNotification,
 * CobRNotification).
 */
import type { ReceiverAccount } from '../config.ts';
import type {
  NewRecurrence,
  PixAutomaticApi,
  PspRejection,
  RecurrenceState,
  RecurringChargeState,
} from '../provider.ts';
import { type MtlsClient, PspRejected } from './http.ts';
import { fromPspAmount, toPspAmount } from './money.ts';

const PAYER_SIDE = new Set(['USUARIO_PAGADOR', 'PSP_PAGADOR']);
const REC_STATUSES = new Set(['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA']);
const COBR_STATUSES = new Set(['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA']);

function recurrenceOf(body: Record<string, unknown>): RecurrenceState {
  const status = String(body?.status);
  if (!REC_STATUSES.has(status)) throw new PspRejected(502, { title: `unknown rec status ${status}` });
  const cancel = (body.encerramento as { cancelamento?: { solicitante?: string } } | undefined)?.cancelamento;
  // Not in the API Pix v2.9.0 (the payer's maximum stays with the payer's PSP): read when a PSP adds it.
  const maximum = fromPspAmount((body.valor as { valorMaximo?: unknown } | undefined)?.valorMaximo);
  return {
    status: status as RecurrenceState['status'],
    ...(cancel?.solicitante
      ? { cancelledBy: PAYER_SIDE.has(cancel.solicitante) ? ('payer' as const) : ('receiver' as const) }
      : {}),
    ...(maximum ? { payerMaximumMinor: maximum } : {}),
  };
}

/** A rejeicao or cancelamento object ({codigo, descricao}), or undefined when it is not one. */
function rejectionOf(value: unknown): PspRejection | undefined {
  const { codigo, descricao } = (value ?? {}) as { codigo?: unknown; descricao?: unknown };
  if (typeof codigo !== 'string' || codigo.length === 0) return undefined;
  return {
    code: codigo.slice(0, 4),
    description: typeof descricao === 'string' ? descricao.slice(0, 400) : '',
  };
}

const ATTEMPT_STATUSES = new Set(['SOLICITADA', 'AGENDADA', 'PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA']);

function chargeOf(body: Record<string, unknown>): RecurringChargeState {
  const status = String(body?.status);
  if (!COBR_STATUSES.has(status)) throw new PspRejected(502, { title: `unknown cobr status ${status}` });
  const attempts = Array.isArray(body.tentativas) ? (body.tentativas as Record<string, unknown>[]) : [];
  const paid = attempts.find((attempt) => attempt.status === 'PAGA');
  const ending = body.encerramento as { rejeicao?: unknown; cancelamento?: unknown } | undefined;
  const why = rejectionOf(ending?.rejeicao) ?? rejectionOf(ending?.cancelamento);
  return {
    status: status as RecurringChargeState['status'],
    ...(typeof paid?.endToEndId === 'string' ? { endToEndId: paid.endToEndId } : {}),
    ...(why ? { ending: why } : {}),
    attempts: attempts.map((attempt) => {
      // An attempt we cannot read could hide one under way: retrying blind could charge twice.
      if (typeof attempt.dataLiquidacao !== 'string' || !ATTEMPT_STATUSES.has(String(attempt.status)))
        throw new PspRejected(502, { title: `unreadable cobr tentativa ${JSON.stringify(attempt)}` });
      const rejection = rejectionOf(attempt.rejeicao);
      return {
        date: attempt.dataLiquidacao,
        status: attempt.status as RecurringChargeState['attempts'][number]['status'],
        ...(rejection ? { rejection } : {}),
      };
    }),
  };
}

/** The recurrence's body as POST /rec takes it (RecPayload): fixed valorRec or a floor, never both. */
function recBody(input: NewRecurrence) {
  const document =
    input.debtor.documentType === 'cpf' ? { cpf: input.debtor.document } : { cnpj: input.debtor.document };
  return {
    vinculo: {
      contrato: input.contract.replaceAll('-', '').slice(0, 35),
      devedor: { ...document, nome: input.debtor.name.slice(0, 140) },
      ...(input.description ? { objeto: input.description.slice(0, 35) } : {}),
    },
    calendario: {
      dataInicial: input.startDate,
      periodicidade: input.frequency,
      ...(input.endDate ? { dataFinal: input.endDate } : {}),
    },
    valor: input.fixedMinor
      ? { valorRec: toPspAmount(input.fixedMinor) }
      : { valorMinimoRecebedor: toPspAmount(input.minimumMinor ?? 0n) },
    politicaRetentativa: input.retryPolicy,
  };
}

export class PixAutomatico implements PixAutomaticApi {
  constructor(
    private readonly http: MtlsClient,
    private readonly baseUrl: string,
    private readonly receiver: ReceiverAccount,
    private readonly webhook: { url: string; secret: string },
  ) {}

  /**
   * PUT /webhookrec and /webhookcobr with {webhookUrl}: our PIX notification URL + /automatico,
   * the secret riding in its query as for /webhook/{chave}, and the /rec or /cobr the PSP appends
   * landing in the throwaway `ignorar` parameter.
   */
  async registerWebhooks(): Promise<void> {
    const url = new URL(this.webhook.url);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/automatico`;
    url.search = `hmac=${this.webhook.secret}&ignorar=`;
    for (const path of ['/webhookrec', '/webhookcobr']) {
      const response = await this.http.call(
        'PUT',
        `${this.baseUrl}${path}`,
        { webhookUrl: url.toString() },
        { 'x-skip-mtls-checking': 'true' },
      );
      if (response.status >= 400) throw new PspRejected(response.status, response.body ?? {});
    }
  }

  async createRecurrence(input: NewRecurrence) {
    const response = await this.http.call('POST', `${this.baseUrl}/rec`, recBody(input));
    if (response.status >= 400 || typeof response.body?.idRec !== 'string')
      throw new PspRejected(response.status, response.body ?? {});
    return { idRec: response.body.idRec as string, state: recurrenceOf(response.body) };
  }

  async getRecurrence(idRec: string) {
    const response = await this.http.call('GET', `${this.baseUrl}/rec/${encodeURIComponent(idRec)}`);
    return response.status === 404 ? undefined : recurrenceOf(response.body);
  }

  async cancelRecurrence(idRec: string) {
    const response = await this.http.call('PATCH', `${this.baseUrl}/rec/${encodeURIComponent(idRec)}`, {
      status: 'CANCELADA',
    });
    return recurrenceOf(response.body);
  }

  /** PUT /cobr/{txid}; a PSP that refuses a txid it already has is asked for that cobr, as a cob is. */
  async createRecurringCharge(input: {
    txid: string;
    idRec: string;
    dueDate: string;
    amountMinor: bigint;
    description?: string | null;
  }) {
    const body = {
      idRec: input.idRec,
      calendario: { dataDeVencimento: input.dueDate },
      valor: { original: toPspAmount(input.amountMinor) },
      ajusteDiaUtil: true,
      // CobRSolicitada requires it (DadosBancariosRecebedor): the account the cycle is paid into.
      recebedor: {
        conta: this.receiver.account,
        tipoConta: this.receiver.accountType,
        ...(this.receiver.branch ? { agencia: this.receiver.branch } : {}),
      },
      ...(input.description ? { infoAdicional: input.description.slice(0, 140) } : {}),
    };
    try {
      const response = await this.http.call('PUT', `${this.baseUrl}/cobr/${input.txid}`, body);
      if (response.status === 404) throw new PspRejected(404, response.body ?? {});
      return chargeOf(response.body);
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      const existing = await this.getRecurringCharge(input.txid);
      if (existing) return existing;
      throw error;
    }
  }

  /** A cobr the PSP will not cancel (paid, or ended already) is asked for: its state is the answer. */
  async cancelRecurringCharge(txid: string) {
    try {
      const response = await this.http.call('PATCH', `${this.baseUrl}/cobr/${txid}`, { status: 'CANCELADA' });
      if (response.status !== 404) return chargeOf(response.body);
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
    }
    return this.getRecurringCharge(txid);
  }

  /**
   * POST /cobr/{txid}/retentativa/{data}. A PSP that refuses (a retry for that date exists already,
   * our earlier request having reached it) is asked for the cobr: one with an attempt on that date
   * is the answer, else the refusal stands.
   */
  async requestRetry(txid: string, date: string) {
    try {
      const response = await this.http.call('POST', `${this.baseUrl}/cobr/${txid}/retentativa/${date}`);
      if (response.status !== 404) return chargeOf(response.body);
      throw new PspRejected(404, response.body ?? {});
    } catch (error) {
      if (!(error instanceof PspRejected)) throw error;
      const existing = await this.getRecurringCharge(txid);
      if (existing?.attempts.some((attempt) => attempt.date === date)) return existing;
      throw error;
    }
  }

  async getRecurringCharge(txid: string) {
    const response = await this.http.call('GET', `${this.baseUrl}/cobr/${txid}`);
    return response.status === 404 ? undefined : chargeOf(response.body);
  }
}
