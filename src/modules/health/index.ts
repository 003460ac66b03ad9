import { defineModule } from '../../platform/module.ts';
import health from './routes/health.ts';

export default defineModule({
  name: 'health',
  routes: [health],
});
