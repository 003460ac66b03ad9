import { defineModule } from '../../platform/module.ts';
import { disputeDeadlineNotices } from './deadlines.ts';
import { liveInfractionPoll } from './infractions.ts';
import submitDefense from './routes/defense-create.ts';
import getDispute from './routes/get.ts';
import listDisputes from './routes/list.ts';
import simulateCloseDispute from './routes/simulate-close.ts';
import simulateOpenDispute from './routes/simulate-open.ts';
import { disputeHoldTopUp } from './top-up.ts';

export default defineModule({
  name: 'disputes',
  routes: [listDisputes, getDispute, submitDefense, simulateOpenDispute, simulateCloseDispute],
  tasks: [disputeDeadlineNotices, liveInfractionPoll, disputeHoldTopUp],
});
