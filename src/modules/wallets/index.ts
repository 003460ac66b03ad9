import { defineModule } from '../../platform/module.ts';
import createWallet from './routes/create.ts';
import getWallet from './routes/get.ts';
import listWallets from './routes/list.ts';
import walletTransactions from './routes/transactions.ts';
import addToWhitelist from './routes/whitelist-add.ts';
import removeFromWhitelist from './routes/whitelist-delete.ts';
import listWhitelist from './routes/whitelist-list.ts';

export default defineModule({
  name: 'wallets',
  routes: [
    createWallet,
    listWallets,
    getWallet,
    walletTransactions,
    addToWhitelist,
    listWhitelist,
    removeFromWhitelist,
  ],
});
