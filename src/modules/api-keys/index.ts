import { defineModule } from '../../platform/module.ts';
import createApiKey from './routes/create.ts';
import listApiKeys from './routes/list.ts';
import revokeApiKey from './routes/revoke.ts';

export default defineModule({
  name: 'api-keys',
  routes: [createApiKey, listApiKeys, revokeApiKey],
});
