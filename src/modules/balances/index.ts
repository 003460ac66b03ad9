import { defineModule } from '../../platform/module.ts';
import listBalances from './routes/balances.ts';
import statement from './routes/statement.ts';
import statementCsv from './routes/statement-csv.ts';

export default defineModule({
  name: 'balances',
  routes: [listBalances, statement, statementCsv],
});
