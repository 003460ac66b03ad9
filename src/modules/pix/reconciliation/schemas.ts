import { Type } from 'typebox';
import { PageQuery } from '../../../platform/pagination.ts';
import { EnvironmentName, Timestamp, Uuid } from '../../../platform/schema.ts';
import { StatementCsvQuery } from '../../balances/schemas.ts';

/** What a reconciliation finds (reconciliation/service.ts says what each means). */
export const FINDING_KINDS = [
  'missing_pix',
  'amount_mismatch',
  'unknown_to_psp',
  'return_not_reflected',
  'status_mismatch',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

const Minor = Type.Union([Type.String({ pattern: '^-?[0-9]+$' }), Type.Null()]);
const Text = Type.Union([Type.String(), Type.Null()]);

export const ReconciliationRun = Type.Object(
  {
    id: Uuid,
    object: Type.Literal('reconciliation_run'),
    environment: EnvironmentName,
    from: Timestamp,
    to: Timestamp,
    trigger: Type.Enum(['daily', 'on_demand', 'cli']),
    status: Type.Enum(['agreed', 'discrepancies'], {
      description: 'agreed: the books and the PSP match for this workspace in the window',
    }),
    psp_pix_count: Type.Integer({
      description: 'PIX the PSP received in the window matched to this workspace',
    }),
    transfers_count: Type.Integer({
      description: "The workspace's payouts and refunds of the window asked of the PSP",
    }),
    findings_count: Type.Integer(),
    created_at: Timestamp,
  },
  {
    description: "One reconciliation of a window of the workspace's PIX books with the PSP's records",
    examples: [
      {
        id: '01936b2e-7c1a-7d3e-9f10-2a3b4c5d6e7f',
        object: 'reconciliation_run',
        environment: 'live',
        from: '2026-11-24T03:00:00.000Z',
        to: '2026-11-25T03:00:00.000Z',
        trigger: 'daily',
        status: 'discrepancies',
        psp_pix_count: 12,
        transfers_count: 3,
        findings_count: 1,
        created_at: '2026-11-25T04:00:00.000Z',
      },
    ],
  },
);

export const ReconciliationFinding = Type.Object({
  id: Uuid,
  kind: Type.Enum(FINDING_KINDS),
  end_to_end_id: Text,
  payment_id: Type.Union([Uuid, Type.Null()]),
  expected_minor: Type.Union([Minor], { description: "Lastro's amount, in minor units" }),
  found_minor: Type.Union([Minor], { description: "The PSP's amount, in minor units" }),
  expected_status: Text,
  found_status: Text,
  detail: Type.String(),
});

export const ReconciliationRunDetail = Type.Intersect([
  ReconciliationRun,
  Type.Object({ findings: Type.Array(ReconciliationFinding) }),
]);

export const RunListQuery = Type.Object(PageQuery());

export const DiscrepancyBody = Type.Object({
  kind: Type.Enum(['missing_pix', 'amount_mismatch', 'status_mismatch'], {
    description:
      "missing_pix: the sandbox PSP receives a PIX of 1000 on the workspace's key that the books never hear of; amount_mismatch: the PSP's record of the newest paid charge says 1 more; status_mismatch: the newest settled payout or refund is the other outcome at the PSP",
  }),
});

export const Discrepancy = Type.Object({
  kind: Type.Enum(['missing_pix', 'amount_mismatch', 'status_mismatch']),
  payment_id: Type.Union([Uuid, Type.Null()]),
  end_to_end_id: Type.Union([Type.String(), Type.Null()]),
  run: ReconciliationRunDetail,
});

/** The findings of the runs whose window starts in a range: its bounds are the statement file's. */
export const FindingsCsvQuery = Type.Object({
  from: StatementCsvQuery.properties.from,
  to: StatementCsvQuery.properties.to,
  timezone: StatementCsvQuery.properties.timezone,
});

export const FINDINGS_CSV_COLUMNS = [
  'run_id',
  'window_from',
  'window_to',
  'kind',
  'end_to_end_id',
  'payment_id',
  'expected_minor',
  'found_minor',
  'expected_status',
  'found_status',
  'detail',
] as const;
