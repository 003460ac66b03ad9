import { defineModule } from '../../platform/module.ts';
import { watchDeposits } from './deposits.ts';
import sendCrypto from './routes/send.ts';
import simulateDeposit from './routes/simulate-deposit.ts';
import { cryptoTransfers } from './transfers.ts';

export default defineModule({
  name: 'crypto',
  routes: [sendCrypto, simulateDeposit],
  jobs: cryptoTransfers.jobs,
  tasks: [
    { name: 'crypto-deposit-watcher', intervalMs: 5_000, run: watchDeposits },
    ...cryptoTransfers.tasks,
  ],
});
