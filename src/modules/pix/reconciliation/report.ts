/** A reconciliation's report: its findings and what each workspace it touched had. */
import type { Environment } from '../../../platform/context.ts';
import type { FindingKind } from './schemas.ts';

/** Findings about PIX no workspace explains are stored under this id, which no caller has. */
export const NO_WORKSPACE = '00000000-0000-0000-0000-000000000000';

export interface Finding {
  workspaceId: string;
  kind: FindingKind;
  endToEndId: string | null;
  paymentId: string | null;
  expectedMinor: bigint | null;
  foundMinor: bigint | null;
  expectedStatus: string | null;
  foundStatus: string | null;
  detail: string;
}

export interface ReconcileReport {
  runId: string;
  environment: Environment;
  from: Date;
  to: Date;
  pspPix: number;
  transfers: number;
  findings: Finding[];
  /** What each workspace the run touched had: PIX at the PSP and transfers asked about. */
  workspaces: Map<string, { pspPix: number; transfers: number }>;
  ok: boolean;
}

export const finding = (
  workspaceId: string | null,
  kind: FindingKind,
  fields: Partial<Finding>,
): Finding => ({
  workspaceId: workspaceId ?? NO_WORKSPACE,
  kind,
  endToEndId: null,
  paymentId: null,
  expectedMinor: null,
  foundMinor: null,
  expectedStatus: null,
  foundStatus: null,
  detail: '',
  ...fields,
});
