import { defineModule } from '../../platform/module.ts';
import listAuditEvents from './routes/list.ts';

export default defineModule({
  name: 'audit',
  routes: [listAuditEvents],
});
