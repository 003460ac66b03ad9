/**
 * `lastro reconcile --from <ISO> --to <ISO> [--json] [--environment live|sandbox]`: the PIX books beside
 * the PSP's records for the window; exit 0 when they agree, 1 when they do not, 2 on a bad command line,
 * 3 when it could not reconcile (the PSP or the database did not answer; nothing is stored).
 */
import type { Environment } from '../../../platform/context.ts';
import type { CliCommand } from '../../../platform/module.ts';
import { progressTo } from '../../../platform/progress.ts';
import { DEFAULT_TIME_ZONE, startOfLocalDay } from '../../../platform/time-zone.ts';
import { type Finding, NO_WORKSPACE, type ReconcileReport } from './report.ts';
import { reconcile } from './service.ts';

interface Args {
  from: Date;
  to: Date;
  json: boolean;
  environment: Environment;
}

/**
 * A bound of the window: a date is that day's first instant in São Paulo; a date-time must carry its
 * offset, since without one it would be read in the host's zone. Anything else is not a time.
 */
function instantOf(text: string | undefined): Date {
  const day = text?.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (day) {
    const [year, month, date] = day.slice(1).map(Number) as [number, number, number];
    return startOfLocalDay({ year, month, day: date }, DEFAULT_TIME_ZONE);
  }
  return text !== undefined && /(Z|[+-]\d{2}:\d{2})$/i.test(text) ? new Date(text) : new Date(Number.NaN);
}

/** The arguments, or undefined when they are not a window of two date-times and known flags. */
export function parseReconcileArgs(argv: string[]): Args | undefined {
  const values = new Map<string, string>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--json') json = true;
    else if (['--from', '--to', '--environment'].includes(word) && argv[i + 1] !== undefined)
      values.set(word, argv[++i]!);
    else return undefined;
  }
  const from = instantOf(values.get('--from'));
  const to = instantOf(values.get('--to'));
  const environment = values.get('--environment') ?? 'live';
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from >= to) return undefined;
  if (environment !== 'live' && environment !== 'sandbox') return undefined;
  return { from, to, json, environment };
}

const line = (f: Finding) =>
  `  ${f.kind.padEnd(20)} ${f.workspaceId === NO_WORKSPACE ? 'no workspace' : `workspace ${f.workspaceId}`}: ${f.detail}`;

export function formatReconcile(report: ReconcileReport): string {
  const head = `reconcile ${report.environment} ${report.from.toISOString()} .. ${report.to.toISOString()} (run ${report.runId}): ${report.pspPix} PIX at the PSP, ${report.transfers} transfers asked`;
  if (report.ok) return `${head}\nthe books agree with the PSP`;
  return `${head}\n${report.findings.length} finding(s):\n${report.findings.map(line).join('\n')}`;
}

export function reconcileJson(report: ReconcileReport) {
  return {
    ok: report.ok,
    run_id: report.runId,
    environment: report.environment,
    from: report.from.toISOString(),
    to: report.to.toISOString(),
    psp_pix_count: report.pspPix,
    transfers_count: report.transfers,
    findings: report.findings.map((f) => ({
      workspace_id: f.workspaceId === NO_WORKSPACE ? null : f.workspaceId,
      kind: f.kind,
      end_to_end_id: f.endToEndId,
      payment_id: f.paymentId,
      expected_minor: f.expectedMinor === null ? null : String(f.expectedMinor),
      found_minor: f.foundMinor === null ? null : String(f.foundMinor),
      expected_status: f.expectedStatus,
      found_status: f.foundStatus,
      detail: f.detail,
    })),
  };
}

export const reconcileCommand: CliCommand = {
  name: 'reconcile',
  usage:
    'reconcile --from <date | ISO with offset> --to <date | ISO with offset> [--json] [--environment live|sandbox]  compare the PIX books with the PSP (exit 0 agree, 1 findings, 3 could not reconcile)',
  parse: parseReconcileArgs,
  async run(deps, args) {
    const { from, to, json, environment } = args as Args;
    let report: ReconcileReport;
    try {
      // Progress goes to stderr: stdout carries the report alone, --json or not.
      report = await reconcile(deps, { environment, from, to, trigger: 'cli' }, progressTo(process.stderr));
    } catch (error) {
      // Not reconciled is not "the books disagree": monitoring must tell an outage from findings.
      console.error(`lastro reconcile: could not reconcile: ${(error as Error).message}`);
      return 3;
    }
    console.log(json ? JSON.stringify(reconcileJson(report), null, 2) : formatReconcile(report));
    return report.ok ? 0 : 1;
  },
};
