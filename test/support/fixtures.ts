/** The primitives of the test world (test/support/world.ts), under the module older tests import them from. */
export {
  authHeaders,
  client,
  createApiKey,
  enableProduction,
  type Owner,
  PASSWORD,
  signupOwner,
} from './world.ts';
