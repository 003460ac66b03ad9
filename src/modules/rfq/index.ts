import { defineModule } from '../../platform/module.ts';
import executeQuote from './routes/execute.ts';
import listPrices from './routes/prices-list.ts';
import createQuote from './routes/quote-create.ts';
import getQuote from './routes/quote-get.ts';
import simulateExpire from './routes/simulate-expire.ts';

export default defineModule({
  name: 'rfq',
  routes: [listPrices, createQuote, executeQuote, getQuote, simulateExpire],
});
