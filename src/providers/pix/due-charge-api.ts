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

export interface DueChargeApi {
  /** PUT /cobv/{txid}: idempotent on our txid. */
  create(input: NewDueCharge): Promise<IssuedDueCharge>;
  /** GET /cobv/{txid}: its status and the PIX received on it (pix[].valor is what was paid). */
  get(txid: string): Promise<DueChargeState | undefined>;
  /** PUT /lotecobv/{id}: the PSP creates them in the background (202). */
  createBatch(batchId: string, description: string, items: NewDueCharge[]): Promise<void>;
  /** GET /lotecobv/{id}: each request's state. */
  getBatch(batchId: string): Promise<DueBatchItem[]>;
}
