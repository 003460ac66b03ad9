import { defineModule } from '../../platform/module.ts';
import { kycCommand } from './cli.ts';
import createCustomer from './routes/customers-create.ts';
import getCustomer from './routes/customers-get.ts';
import listCustomers from './routes/customers-list.ts';
import updateCustomer from './routes/customers-update.ts';
import openKycCase from './routes/kyc-create.ts';
import getKycCase from './routes/kyc-get.ts';
import listKycCases from './routes/kyc-list.ts';
import answerRfi from './routes/rfi-answer.ts';
import createRfi from './routes/rfi-create.ts';
import listRfis from './routes/rfi-list.ts';
import simulateKycDecision from './routes/simulate-kyc.ts';

export default defineModule({
  name: 'parties',
  routes: [
    createCustomer,
    listCustomers,
    getCustomer,
    updateCustomer,
    openKycCase,
    listKycCases,
    getKycCase,
    createRfi,
    listRfis,
    answerRfi,
    simulateKycDecision,
  ],
  commands: [kycCommand],
});
