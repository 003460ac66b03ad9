/** The dispatcher and its task live under worker/, one file per step; importers name them here. */
export { type DispatcherOptions, WebhookDispatcher } from './worker/dispatcher.ts';
export { createWebhookDispatchTask, webhookDispatchTask } from './worker/task.ts';
