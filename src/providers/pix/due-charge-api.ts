/**
 * What a PSP offers for PIX charges with a due date (the BCB API Pix's CobV and LoteCobV). A live
 * provider has it (PixProvider.dueCharges); the sandbox issues its own BR Code through createCharge
 * and keeps the terms itself. Plain shapes: providers import no module.
 */

export interface DueChargePart {
  modality: number;
  value_minor?: string;
  percent?: string;
  dates?: { date: string; value_minor?: string; percent?: string }[];
}

export interface NewDueCharge {
  paymentId: string;
  amountMinor: bigint;
  dueDate: string;
  daysValidAfterDue: number;
  debtor: { name: string; document: string; documentType: 'cpf' | 'cnpj' };
  description?: string | null;
  terms: { fine?: DueChargePart; interest?: DueChargePart; rebate?: DueChargePart; discount?: DueChargePart };
}

export interface IssuedDueCharge {
  txid: string;
  brCode: string;
  providerRef: string;
}

/** One request of a lote as the PSP answers GET /lotecobv/{id}. */
export interface DueBatchItem {
  txid: string;
  status: 'processing' | 'created' | 'denied';
  problem?: string;
}

/** A cobv as GET /cobv/{txid} shows it: what the poll reads (a ReceivedPix fits a paid entry). */
export interface DueChargeState {
  status: 'active' | 'paid' | 'removed';
  amountMinor: bigint | undefined;
  payments: { endToEndId: string; amountMinor: bigint | undefined; receivedAt?: Date }[];
  brCode?: string;
  locId?: string;
}

/**
 * A revision of a cobv (PATCH /cobv/{txid}, CobVRevisada): its new terms whole, or its removal
 * (status REMOVIDA_PELO_USUARIO_RECEBEDOR), never both, as the standard refuses a removal carrying
 * other changes.
 */
export type DueChargeRevision = { remove: true } | { remove: false; charge: NewDueCharge };

export interface DueChargeApi {
  /** PUT /cobv/{txid}: idempotent on our txid. */
  create(input: NewDueCharge): Promise<IssuedDueCharge>;
  /** GET /cobv/{txid}: its status and the PIX received on it (pix[].valor is what was paid). */
  get(txid: string): Promise<DueChargeState | undefined>;
  /**
   * PATCH /cobv/{txid}: revises or removes an ATIVA cobv (its revisao goes up by 1). A PSP that is
   * away is 503 provider_unavailable; one that refuses (the cobv paid or removed meanwhile, or not
   * yet created from its lote) is 422 invalid_state. Either way nothing changed at the PSP. A removal
   * of a cobv the PSP shows removed already resolves: that removal is the one asked for, retried.
   */
  revise(txid: string, revision: DueChargeRevision): Promise<void>;
  /** PUT /lotecobv/{id}: the PSP creates them in the background (202). */
  createBatch(batchId: string, description: string, items: NewDueCharge[]): Promise<void>;
  /** GET /lotecobv/{id}: each request's state. */
  getBatch(batchId: string): Promise<DueBatchItem[]>;
}
