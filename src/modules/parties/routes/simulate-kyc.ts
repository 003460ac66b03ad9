import type { Deps } from '../../../platform/context.ts';
import { BODY_OPTIONAL } from '../../../platform/openapi.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { decideCase } from '../kyc.ts';
import { KYC_CASE_EXAMPLE, KycCase, KycDecisionBody } from '../schemas.ts';

/** The sandbox stand-in for compliance: approve or reject a sandbox KYC case (live → 404). */
export default function route(app: App, deps: Deps) {
  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/v1/:env/simulate/kyc/:id/${decision}`,
      {
        config: {
          auth: 'workspace',
          sandboxOnly: true,
          record: 'kyc_case',
          errors: ['not_found', 'invalid_state'],
        },
        schema: {
          tags: ['sandbox'],
          summary: `Sandbox only: compliance ${decision === 'approve' ? 'approves' : 'rejects'} this KYC case`,
          description:
            "Sandbox only: compliance decides the KYC case now, with an optional reason; the party's kyc_status follows and kyc.updated is sent. A decided case is 422 invalid_state.",
          params: SandboxEnvIdParams,
          [BODY_OPTIONAL]: true,
          body: KycDecisionBody,
          response: respond(KycCase, {
            example: {
              ...KYC_CASE_EXAMPLE,
              status: decision === 'approve' ? 'approved' : 'rejected',
              decision_reason: 'Documents verified',
              decided_at: '2026-11-21T12:30:00.000Z',
            },
          }),
        },
      },
      async (request) => ({
        data: await request.write((tx) =>
          decideCase(tx, contextOf(deps, request), {
            id: request.params.id,
            decision,
            reason: request.body.reason,
            by: 'sandbox_helper',
          }),
        ),
      }),
    );
  }
}
