import { defineModule } from '../../platform/module.ts';
import simulateAuthorise from './routes/simulate-authorise.ts';
import simulateFailPayments from './routes/simulate-fail-payments.ts';
import simulateRunCycles from './routes/simulate-run-cycles.ts';
import cancelSubscription from './routes/subscriptions-cancel.ts';
import createSubscription from './routes/subscriptions-create.ts';
import listCycles from './routes/subscriptions-cycles.ts';
import getSubscription from './routes/subscriptions-get.ts';
import listSubscriptions from './routes/subscriptions-list.ts';
import { subscriptionCycles } from './sweep.ts';

export { runSubscriptionCycles } from './sweep.ts';

/** Pix Automático subscriptions (BCB API Pix rec/cobr): the resource, its sandbox simulator, the cycle task. */
export default defineModule({
  name: 'subscriptions',
  routes: [
    createSubscription,
    listSubscriptions,
    getSubscription,
    listCycles,
    cancelSubscription,
    simulateAuthorise,
    simulateFailPayments,
    simulateRunCycles,
  ],
  tasks: [subscriptionCycles],
});
