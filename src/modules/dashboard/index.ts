import { defineModule } from '../../platform/module.ts';
import serve from './routes/serve.ts';

/** The web dashboard (web/dashboard, built into dist/dashboard), served at /dashboard. */
export default defineModule({ name: 'dashboard', routes: [serve] });
