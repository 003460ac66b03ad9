import { defineModule } from '../../platform/module.ts';
import guides from './routes/guides.ts';

/** The integration guides (docs/guides) beside the API reference at /docs. */
export default defineModule({
  name: 'guides',
  routes: [guides],
});
