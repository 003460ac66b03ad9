import { sealJournals } from '../../ledger/seal.ts';
import { defineModule } from '../../platform/module.ts';
import { verifyCommand } from './cli.ts';

/** The books' own checks: `lastro verify`, and the sealer that chains committed journals (src/ledger/seal.ts). */
export default defineModule({
  name: 'verify',
  routes: [],
  tasks: [{ name: 'ledger-seal', intervalMs: 1000, run: sealJournals }],
  commands: [verifyCommand],
});
