import { defineModule } from '../../platform/module.ts';
import { automaticWebhookRegistration } from './notifications.ts';
import pspNotifications from './routes/psp-notifications.ts';
import simulateAuthorise from './routes/simulate-authorise.ts';
import simulateFailPayments from './routes/simulate-fail-payments.ts';
import simulateRunCycles from './routes/simulate-run-cycles.ts';
import cancelSubscription from './routes/subscriptions-cancel.ts';
import createSubscription from './routes/subscriptions-create.ts';
import listCycles from './routes/subscriptions-cycles.ts';
import getSubscription from './routes/subscriptions-get.ts';
import listSubscriptions from './routes/subscriptions-list.ts';
import setNextCycle from './routes/subscriptions-next-cycle.ts';
import { subscriptionCycles } from './sweep.ts';

export { automaticWebhookRegistration } from './notifications.ts';
export { runSubscriptionCycles } from './sweep.ts';

/** Pix Automático subscriptions (BCB API Pix rec/cobr): the resource, its sandbox simulator, the cycle task. */
export default defineModule({
  name: 'subscriptions',
  routes: [
    createSubscription,
    listSubscriptions,
    getSubscription,
    listCycles,
    setNextCycle,
    cancelSubscription,
    simulateAuthorise,
    simulateFailPayments,
    simulateRunCycles,
    pspNotifications,
  ],
  tasks: [subscriptionCycles, automaticWebhookRegistration],
});
