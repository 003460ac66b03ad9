import { defineModule } from '../../platform/module.ts';
import getPayment from './routes/get.ts';
import listPayments from './routes/list.ts';
import dailyReport from './routes/reports-daily.ts';

export default defineModule({
  name: 'payments',
  routes: [getPayment, listPayments, dailyReport],
});
