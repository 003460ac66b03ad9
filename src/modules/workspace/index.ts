import { defineModule } from '../../platform/module.ts';
import getWorkspace from './routes/get.ts';
import updateWorkspace from './routes/update.ts';

export default defineModule({
  name: 'workspace',
  routes: [getWorkspace, updateWorkspace],
});
