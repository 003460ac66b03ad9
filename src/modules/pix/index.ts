import { defineModule } from '../../platform/module.ts';
import { expireDueCharges } from './charge-payment.ts';
import { dueChargeTasks } from './due-charge-tasks.ts';
import { debtRecovery } from './med-returns.ts';
import { pixChargePoll, pixReturnsPoll } from './notifications/charge-poll.ts';
import { pixWebhookRegistration } from './notifications/webhook-registration.ts';
import { reconcileCommand } from './reconciliation/cli.ts';
import { dailyReconciliation } from './reconciliation/daily.ts';
import createPixCharge from './routes/charges-create.ts';
import dueChargePage from './routes/due-charge-page.ts';
import createDueChargeBatch from './routes/due-charges-batch.ts';
import createDueCharges from './routes/due-charges-create.ts';
import getDueCharge from './routes/due-charges-get.ts';
import listDueCharges from './routes/due-charges-list.ts';
import updateDueCharge from './routes/due-charges-update.ts';
import createPixPayout from './routes/payouts-create.ts';
import pspNotifications from './routes/psp-notifications.ts';
import paymentQrCode from './routes/qr.ts';
import reconciliationFindingsCsv from './routes/reconciliation-findings-csv.ts';
import reconciliationRuns from './routes/reconciliation-runs.ts';
import createRefund from './routes/refund-create.ts';
import deleteSettlementKey from './routes/settlement-key-delete.ts';
import getSettlementKey from './routes/settlement-key-get.ts';
import putSettlementKey from './routes/settlement-key-put.ts';
import simulatePaymentHelpers from './routes/simulate.ts';
import simulateCashIn from './routes/simulate-cash-in.ts';
import simulateRailEvents from './routes/simulate-rail-events.ts';
import simulateReconciliation from './routes/simulate-reconciliation.ts';
import unassignedPix from './routes/unassigned.ts';
import { pixTransfers } from './transfers.ts';

export default defineModule({
  name: 'pix',
  routes: [
    putSettlementKey,
    getSettlementKey,
    deleteSettlementKey,
    createPixPayout,
    createPixCharge,
    createDueCharges,
    createDueChargeBatch,
    getDueCharge,
    dueChargePage,
    listDueCharges,
    updateDueCharge,
    createRefund,
    paymentQrCode,
    simulateCashIn,
    simulatePaymentHelpers,
    simulateRailEvents,
    unassignedPix,
    reconciliationRuns,
    reconciliationFindingsCsv,
    simulateReconciliation,
    pspNotifications,
  ],
  jobs: pixTransfers.jobs,
  tasks: [
    { name: 'pix-charge-expiry', intervalMs: 5_000, run: expireDueCharges },
    pixWebhookRegistration,
    pixChargePoll,
    pixReturnsPoll,
    debtRecovery,
    dailyReconciliation,
    ...dueChargeTasks,
    ...pixTransfers.tasks,
  ],
  commands: [reconcileCommand],
});

/** What the disputes module asks of the PIX rail: the MED return flow and its cash-ins by end-to-end id. */
export { applyMedReturn, type MedNatureza, returnableOfCharge } from './med-returns.ts';
export { cashInsNamed } from './reconciliation/repo.ts';
