/** `lastro verify [--json]`: checks the books of the configured database; exit code 1 on any violation. */
import type { CliCommand } from '../../platform/module.ts';
import { progressTo } from '../../platform/progress.ts';
import { formatReport, verifyBooks } from './service.ts';

export const verifyCommand: CliCommand = {
  name: 'verify',
  usage: `verify [--json]         check the books (ledger, payments, events, deliveries, seal chain)`,
  parse: (argv) => (argv.every((word) => word === '--json') ? { json: argv.includes('--json') } : undefined),
  async run(deps, args) {
    // Progress goes to stderr: stdout carries the report alone, --json or not.
    const report = await verifyBooks(deps.db, undefined, progressTo(process.stderr));
    console.log((args as { json: boolean }).json ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.ok ? 0 : 1;
  },
};
