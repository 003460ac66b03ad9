import { defineModule } from '../../platform/module.ts';
import createSubaccount from './routes/create.ts';
import getSubaccount from './routes/get.ts';
import listSubaccounts from './routes/list.ts';

export default defineModule({
  name: 'subaccounts',
  routes: [createSubaccount, listSubaccounts, getSubaccount],
});
