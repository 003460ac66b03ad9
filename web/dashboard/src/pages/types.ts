import type { Env } from '../api.ts';
import type { Session } from '../session.ts';

export interface PageProps {
  session: Session;
  env: Env;
  acting: { id: string; name: string } | null;
  actOn: (subaccount: { id: string; name: string } | null) => void;
  updateSession: (session: Session) => void;
  route: string;
}

export interface Payment {
  id: string;
  kind: string;
  status: string;
  amount_minor: string;
  currency: string;
  fee_minor: string;
  party_id: string;
  description: string | null;
  pix_key: string | null;
  pix_qr_code: string | null;
  failure_reason: string | null;
  to_address: string | null;
  network: string | null;
  tx_hash: string | null;
  created_at: string;
  updated_at?: string;
}

export interface Party {
  id: string;
  display_name: string;
  kind: string;
  kyc_status: string;
  status: string;
  document_number: string | null;
  email: string | null;
}
