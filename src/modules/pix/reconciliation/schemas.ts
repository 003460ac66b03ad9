import { Type } from 'typebox';
import { PageQuery } from '../../../platform/pagination.ts';
import { doc, EnvironmentName, Timestamp, Uuid } from '../../../platform/schema.ts';
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

export const ReconciliationRun = Type.Object(
  {
    id: doc(Uuid, 'The run id.'),
    object: Type.Literal('reconciliation_run', { description: 'Always reconciliation_run.' }),
    environment: EnvironmentName,
    from: doc(Timestamp, 'The start of the window compared, inclusive.'),
    to: doc(Timestamp, 'The end of the window compared, exclusive.'),
    trigger: Type.Enum(['daily', 'on_demand', 'cli'], {
      description: 'What started it: the daily run, a sandbox helper (on_demand) or an operator (cli).',
    }),
    status: Type.Enum(['agreed', 'discrepancies'], {
      description: 'agreed: the books and the PSP match for this workspace in the window',
    }),
    psp_pix_count: Type.Integer({
      description: 'PIX the PSP received in the window matched to this workspace',
    }),
    transfers_count: Type.Integer({
      description: "The workspace's payouts and refunds of the window asked of the PSP",
    }),
    findings_count: Type.Integer({ description: 'How many findings the run made about this workspace.' }),
    created_at: doc(Timestamp, 'When the run finished.'),
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
  id: doc(Uuid, 'The finding id.'),
  kind: Type.Enum(FINDING_KINDS, {
    description:
      'missing_pix (the PSP received a PIX the books lack), amount_mismatch, unknown_to_psp, return_not_reflected or status_mismatch.',
  }),
  end_to_end_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The end-to-end id of the PIX concerned.',
  }),
  payment_id: Type.Union([Uuid, Type.Null()], {
    description: 'The payment concerned, when the books have one.',
  }),
  expected_minor: Type.Union([Minor], { description: "Lastro's amount, in minor units" }),
  found_minor: Type.Union([Minor], { description: "The PSP's amount, in minor units" }),
  expected_status: Type.Union([Type.String(), Type.Null()], {
    description: "Lastro's status of the payment.",
  }),
  found_status: Type.Union([Type.String(), Type.Null()], { description: "The PSP's status of it." }),
  detail: Type.String({ description: 'What differs, in a sentence.' }),
});

export const ReconciliationRunDetail = Type.Intersect([
  ReconciliationRun,
  Type.Object({
    findings: Type.Array(ReconciliationFinding, { description: 'What the run found about this workspace.' }),
  }),
]);

export const RUN_EXAMPLE = (ReconciliationRun as unknown as { examples: Record<string, unknown>[] })
  .examples[0]!;
export const RUN_DETAIL_EXAMPLE = {
  ...RUN_EXAMPLE,
  findings: [
    {
      id: '01936b2e-7c1a-7d3e-9f10-2a3b4c5d6e80',
      kind: 'amount_mismatch',
      end_to_end_id: 'E12345678202611241500abcdef12345',
      payment_id: '0194f3a2-7c1e-7b3a-9d2f-4e5a6b7c8d90',
      expected_minor: '15000',
      found_minor: '15001',
      expected_status: 'completed',
      found_status: 'completed',
      detail: 'The PSP received 150.01; the books credited 150.00.',
    },
  ],
};

export const RunListQuery = Type.Object(PageQuery());

export const DiscrepancyBody = Type.Object(
  {
    kind: Type.Enum(['missing_pix', 'amount_mismatch', 'status_mismatch'], {
      description:
        "missing_pix: the sandbox PSP receives a PIX of 1000 on the workspace's key that the books never hear of; amount_mismatch: the PSP's record of the newest paid charge says 1 more; status_mismatch: the newest settled payout or refund is the other outcome at the PSP",
    }),
  },
  { examples: [{ kind: 'amount_mismatch' }] },
);

export const Discrepancy = Type.Object({
  kind: Type.Enum(['missing_pix', 'amount_mismatch', 'status_mismatch'], {
    description: 'The discrepancy made.',
  }),
  payment_id: Type.Union([Uuid, Type.Null()], {
    description: 'The payment it concerns; null for missing_pix.',
  }),
  end_to_end_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The end-to-end id of the PIX concerned.',
  }),
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
