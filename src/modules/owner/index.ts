import { defineModule } from '../../platform/module.ts';
import login from './routes/login.ts';
import logout from './routes/logout.ts';
import signup from './routes/signup.ts';
import enableTwoFactor from './routes/two-factor-enable.ts';
import regenerateRecoveryCodes from './routes/two-factor-recovery-codes.ts';
import setupTwoFactor from './routes/two-factor-setup.ts';

export default defineModule({
  name: 'owner',
  routes: [signup, login, logout, setupTwoFactor, enableTwoFactor, regenerateRecoveryCodes],
});
