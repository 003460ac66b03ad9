import type { DueChargeApi } from './due-charge-api.ts';
import type { PixKeyType } from './keys.ts';

/**
 * A PIX service provider (PSP), one method per step of a transfer. Every call is keyed by our
 * payment id, which the provider treats as its idempotency key: calling twice never pays twice.
 * Providers are only ever called outside a database transaction, after the intent is committed.
 */
export interface PixProvider {
  readonly name: string;
  /** Registers a charge (cash-in) and returns its BR Code. */
  createCharge(input: {
    paymentId: string;
    amountMinor: bigint;
    description?: string | null;
    expiresAt: Date;
  }): Promise<{ txid: string; brCode: string; providerRef: string }>;
  /** Starts a transfer out to a PIX key. Settlement is asynchronous: see getStatus. */
  sendPayout(input: {
    paymentId: string;
    amountMinor: bigint;
    pixKey: string;
    pixKeyType: PixKeyType;
    description?: string | null;
  }): Promise<ProviderTransfer>;
  /** Starts a refund (devolução) of a settled cash-in. */
  sendRefund(input: {
    paymentId: string;
    originalEndToEndId: string | null;
    amountMinor: bigint;
  }): Promise<ProviderTransfer>;
  /**
   * Where a payout or refund stands now; 'unknown' when the provider never saw the payment id. A
   * PSP may need to know which it is, and a refund's original end-to-end id, to find it.
   */
  getStatus(paymentId: string, transfer?: TransferQuery): Promise<ProviderTransfer>;
  /** A charge as the PSP has it, to confirm a notification before money moves (PSPs that notify). */
  getCharge?(txid: string): Promise<ChargeState | undefined>;
  /** Charges with a due date (CobV), where the PSP offers them: bcb/api-pix-cobv.ts. */
  readonly dueCharges?: DueChargeApi;
  /** A PIX received on our key, by its end-to-end id, with its devoluções (PSPs that notify). */
  getReceivedPix?(endToEndId: string): Promise<ReceivedPix | undefined>;
  /**
   * Every PIX received on our key whose horario falls in [from, to), with its devoluções, however
   * many pages the PSP answers in: what reconciliation compares the books with.
   */
  listReceived?(window: { from: Date; to: Date }): Promise<ReceivedPix[]>;
  /** Tells the PSP where to send its notifications; idempotent (PSPs that notify). */
  registerWebhook?(): Promise<void>;
  /** The MED infraction notices on PIX we received, opened or changed in [from, to) (PSPs with a MED API). */
  listInfractions?(window: { from: Date; to: Date }): Promise<Infraction[]>;
  /** Sends the receiver's defense of an infraction (contests it); a refusal or an outage throws. */
  submitDefense?(input: { infractionId: string; text: string; evidence: readonly string[] }): Promise<void>;
  /** Pix Automático recurrences and their charges (PSPs that offer it: bcb/pix-automatico.ts). */
  readonly automatic?: PixAutomaticApi;
}

/** A recurrence as the PSP has it (API Pix RecStatus), and who ended it when it was cancelled. */
export interface RecurrenceState {
  status: 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
  cancelledBy?: 'payer' | 'receiver';
  /**
   * The most the payer authorised per cycle (valor.valorMaximo), when the PSP reports it: the API
   * Pix v2.9.0 does not carry it to the receiver, so most PSPs never do.
   */
  payerMaximumMinor?: bigint;
}

/** Why the PSP rejected an attempt or ended a cobr (API Pix rejeicao: codigo, descricao). */
export interface PspRejection {
  /** The SPI's code (AM02, AC06, …: the BCB's message catalogue). */
  code: string;
  description: string;
}

/**
 * A recurring charge as the PSP has it (API Pix CobRStatus), with the PIX that paid it and its
 * settlement attempts (CobRTentativas: the due date's, then each retry the receiver requested).
 */
export interface RecurringChargeState {
  status: 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
  endToEndId?: string;
  attempts: RecurringChargeAttempt[];
  /** encerramento.rejeicao of a REJEITADA cobr, or encerramento.cancelamento of a CANCELADA one. */
  ending?: PspRejection;
}

export interface RecurringChargeAttempt {
  /** dataLiquidacao, YYYY-MM-DD. */
  date: string;
  status: 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';
  /** tentativas[].rejeicao: why the payer's PSP rejected it. */
  rejection?: PspRejection;
}

export interface NewRecurrence {
  /** Ours (the subscription id): sent as vinculo.contrato, so the PSP's record names it. */
  contract: string;
  description?: string | null;
  debtor: { name: string; document: string; documentType: 'cpf' | 'cnpj' };
  startDate: string;
  endDate?: string | null;
  frequency: 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';
  fixedMinor?: bigint | null;
  minimumMinor?: bigint | null;
  retryPolicy: 'NAO_PERMITE' | 'PERMITE_3R_7D';
}

/** The API Pix's Pix Automático endpoints: /rec and /cobr (github.com/bacen/pix-api, openapi.yaml). */
export interface PixAutomaticApi {
  /** POST /rec: the PSP gives the recurrence its idRec. */
  createRecurrence(input: NewRecurrence): Promise<{ idRec: string; state: RecurrenceState }>;
  getRecurrence(idRec: string): Promise<RecurrenceState | undefined>;
  /** PATCH /rec/{idRec} status CANCELADA: the receiver ends the recurrence. */
  cancelRecurrence(idRec: string): Promise<RecurrenceState>;
  /** PUT /cobr/{txid}: our txid makes it idempotent. */
  createRecurringCharge(input: {
    txid: string;
    idRec: string;
    dueDate: string;
    amountMinor: bigint;
    description?: string | null;
  }): Promise<RecurringChargeState>;
  getRecurringCharge(txid: string): Promise<RecurringChargeState | undefined>;
  /**
   * PATCH /cobr/{txid} status CANCELADA: one cycle's charge is withdrawn. The cobr as it then stands
   * (a cobr paid first stays CONCLUIDA); undefined when the PSP does not know it.
   */
  cancelRecurringCharge(txid: string): Promise<RecurringChargeState | undefined>;
  /**
   * POST /cobr/{txid}/retentativa/{data}: the receiver asks the payer's PSP to try again on `date`
   * (a future day, as the recurrence's politicaRetentativa allows). A retry already requested for
   * that date is answered with the cobr as it stands, not refused.
   */
  requestRetry(txid: string, date: string): Promise<RecurringChargeState>;
  /**
   * PUT /webhookrec and PUT /webhookcobr (idempotent): where the PSP POSTs, appending /rec and
   * /cobr, what happens to our recurrences and their charges.
   */
  registerWebhooks?(): Promise<void>;
}

/**
 * A MED infraction notice on a PIX we received, as the PSP reports it: the payer's bank disputes it
 * through the BCB's DICT, and the receiving PSP tells its client (the merchant-facing side is the PSP's
 * own API). `accepted` ends in a return of the money, `rejected` and `cancelled` leave it.
 */
export interface Infraction {
  id: string;
  endToEndId: string;
  amountMinor: bigint | undefined;
  status: 'open' | 'under_review' | 'accepted' | 'rejected' | 'cancelled';
  reason: string;
  openedAt: Date | undefined;
  /** The last moment the PSP takes a defense, when it says. */
  deadlineAt: Date | undefined;
}

export interface TransferQuery {
  direction: 'payout' | 'refund';
  originalEndToEndId?: string | null;
}

export interface ChargeState {
  status: 'active' | 'paid' | 'removed';
  amountMinor: bigint | undefined;
  /** The PIX received on it. */
  payments: ReceivedPix[];
}

/** A PIX received on our key as the PSP has it: on a charge (txid) or not, and what was returned of it. */
export interface ReceivedPix {
  endToEndId: string;
  txid?: string;
  amountMinor: bigint | undefined;
  /** What the payer's bank sent along (infoPagador), when any. */
  payerInfo?: string;
  /** When the PSP received it (horario), when it said. */
  receivedAt?: Date;
  /** The workspace whose key it reached, where the PSP knows (the sandbox PSP: a key per workspace). */
  keyOwner?: string;
  returns: PspReturn[];
}

/**
 * A devolução of a received PIX: ours (its id is one of our payment ids) or one the PSP made itself,
 * as a MED return (natureza MED_OPERACIONAL, MED_FRAUDE, MED_PIX_AUTOMATICO).
 */
export interface PspReturn {
  id: string;
  rtrId?: string;
  amountMinor: bigint | undefined;
  /** ORIGINAL, RETIRADA, MED_OPERACIONAL, MED_FRAUDE or MED_PIX_AUTOMATICO, as the PSP wrote it. */
  natureza: string;
  status: ProviderTransfer['status'];
}

export interface ProviderTransfer {
  status: 'processing' | 'completed' | 'failed' | 'unknown';
  providerRef?: string;
  endToEndId?: string;
  failureReason?: string;
}

/** What only the sandbox PSP offers: the sandbox helpers settle a transfer as the PSP would report it. */
export interface SandboxPixControls {
  /** Records a transfer as received, still processing (idempotent on the payment id). */
  register(
    paymentId: string,
    direction: 'payout' | 'refund',
    amount: bigint,
    pixKey: string | null,
  ): Promise<void>;
  /** Fixes the outcome of a transfer still processing. */
  forceOutcome(paymentId: string, outcome: 'completed' | 'failed', reason?: string): Promise<void>;
  /** Sets a settled transfer's outcome, whatever the books say: a discrepancy to reconcile. */
  overturn(paymentId: string, outcome: 'completed' | 'failed'): Promise<void>;
}
