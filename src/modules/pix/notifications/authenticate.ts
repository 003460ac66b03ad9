// The PIX callback and the Pix Automático ones (subscriptions) share the one secret check.
export { fromOurPsp } from '../../../platform/auth/psp-secret.ts';
