/** `lastro kyc decide <case> approve|reject --reason "…"`: compliance's decision, from the operator's shell. */
import type { Deps } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import type { CliCommand } from '../../platform/module.ts';
import { systemContext } from '../../platform/request-context.ts';
import { decideCase, findCaseForOperator, type KycDecision } from './kyc.ts';

export const KYC_USAGE = 'lastro kyc decide <case id> approve|reject [--reason "<text>"]';

export interface KycDecideArgs {
  caseId: string;
  decision: KycDecision;
  reason?: string;
}

/** Parses the words after `kyc`; undefined when they do not make a command. */
export function parseKycArgs(argv: string[]): KycDecideArgs | undefined {
  const [verb, caseId, decision, ...rest] = argv;
  if (verb !== 'decide' || !isUuid(caseId) || (decision !== 'approve' && decision !== 'reject'))
    return undefined;
  let reason: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === '--reason' && rest[i + 1] !== undefined) reason = rest[++i];
    else if (word.startsWith('--reason=')) reason = word.slice('--reason='.length);
    else return undefined;
  }
  return { caseId: caseId.toLowerCase(), decision, reason };
}

/** Decides the case in its own workspace and environment, as the operator (audited as `system`). */
export async function runKycDecide(deps: Deps, args: KycDecideArgs) {
  const found = await findCaseForOperator(deps.db, args.caseId);
  const ctx = systemContext(deps, {
    type: 'session',
    workspaceId: found.workspace_id,
    callerWorkspaceId: found.workspace_id,
    environment: found.environment,
    partyId: null,
  });
  return deps.db.transaction((tx) =>
    decideCase(tx, ctx, { id: args.caseId, decision: args.decision, reason: args.reason, by: 'operator' }),
  );
}

/** `lastro kyc decide …`: prints the decided case, or the refusal with exit code 1. */
export const kycCommand: CliCommand = {
  name: 'kyc',
  usage: `${KYC_USAGE.replace('lastro ', '')}\n      compliance's decision on a KYC case (the operator's command)`,
  parse: parseKycArgs,
  async run(deps, args) {
    try {
      console.log(JSON.stringify(await runKycDecide(deps, args as KycDecideArgs)));
      return 0;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      console.error(`lastro kyc: ${error.code}: ${error.message}`);
      return 1;
    }
  },
};
