import { defineModule } from '../../platform/module.ts';
import getEvent from './routes/get.ts';
import listEvents from './routes/list.ts';

export default defineModule({
  name: 'events',
  routes: [listEvents, getEvent],
});
