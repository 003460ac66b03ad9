import { defineModule } from '../../platform/module.ts';
import createWebhookEndpoint from './routes/create-endpoint.ts';
import deleteWebhookEndpoint from './routes/delete-endpoint.ts';
import getWebhookDelivery from './routes/get-delivery.ts';
import getWebhookEndpoint from './routes/get-endpoint.ts';
import listWebhookDeliveries from './routes/list-deliveries.ts';
import listWebhookEndpoints from './routes/list-endpoints.ts';
import webhookListenSession from './routes/listen-session.ts';
import retryWebhookDelivery from './routes/retry-delivery.ts';
import rotateWebhookSecret from './routes/rotate-secret.ts';
import updateWebhookEndpoint from './routes/update-endpoint.ts';
import { webhookDispatchTask } from './worker/task.ts';

export default defineModule({
  name: 'webhooks',
  routes: [
    createWebhookEndpoint,
    listWebhookEndpoints,
    getWebhookEndpoint,
    updateWebhookEndpoint,
    deleteWebhookEndpoint,
    rotateWebhookSecret,
    listWebhookDeliveries,
    getWebhookDelivery,
    retryWebhookDelivery,
    webhookListenSession,
  ],
  tasks: [webhookDispatchTask],
});
