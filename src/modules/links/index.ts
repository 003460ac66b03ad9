import { defineModule } from '../../platform/module.ts';
import createLink from './routes/create.ts';
import getLink from './routes/get.ts';
import listLinks from './routes/list.ts';
import payCheckout from './routes/pay-checkout.ts';
import payPage from './routes/pay-page.ts';
import payStatus from './routes/pay-status.ts';
import listCheckoutPayments from './routes/payments-list.ts';
import getSplits from './routes/splits-get.ts';
import putSplits from './routes/splits-put.ts';
import updateLink from './routes/update.ts';

/** Payment links with their splits, the checkout payment list, and the public hosted checkout (/pay/…). */
export default defineModule({
  name: 'links',
  routes: [
    createLink,
    listLinks,
    listCheckoutPayments,
    getLink,
    updateLink,
    putSplits,
    getSplits,
    payPage,
    payCheckout,
    payStatus,
  ],
});
