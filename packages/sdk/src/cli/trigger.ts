import type { Lastro } from '../client.js';
import { CONNECTION_HELP, clientOf, parse, UsageError } from './options.js';

/** The sandbox activity that emits each event type `lastro trigger` knows, through the public API. */
const TRIGGERS: Record<string, (client: Lastro) => Promise<{ kind: string; id: string }>> = {
  'payment.created': async (client) => {
    const charge = await client.post('/v1/{env}/pix/charges', {
      body: { amount_minor: '1000', currency: 'BRL' },
    });
    return { kind: 'PIX charge', id: charge.id };
  },
  'payment.completed': async (client) => {
    const cashIn = await client.post('/v1/{env}/simulate/pix/cash-in', { body: { amount_minor: '1000' } });
    return { kind: 'PIX cash-in', id: cashIn.id };
  },
  'payment.expired': async (client) => {
    const charge = await client.post('/v1/{env}/pix/charges', {
      body: { amount_minor: '1000', currency: 'BRL' },
    });
    await client.post('/v1/{env}/simulate/payments/{id}/expire', { params: { path: { id: charge.id } } });
    return { kind: 'expired PIX charge', id: charge.id };
  },
  'customer.created': async (client) => {
    const customer = await client.post('/v1/{env}/customers', {
      body: { display_name: 'Triggered customer' },
    });
    return { kind: 'customer', id: customer.id };
  },
  'customer.updated': async (client) => {
    const customer = await client.post('/v1/{env}/customers', {
      body: { display_name: 'Triggered customer' },
    });
    await client.patch('/v1/{env}/customers/{id}', {
      params: { path: { id: customer.id } },
      body: { display_name: 'Triggered customer, renamed' },
    });
    return { kind: 'customer', id: customer.id };
  },
};

export const TRIGGER_HELP = `lastro trigger <event> [options]

Creates, in sandbox, the activity that emits <event> (with the events that come with it):
${Object.keys(TRIGGERS)
  .map((type) => `  ${type}`)
  .join('\n')}

${CONNECTION_HELP}`;

/** `lastro trigger`: creates the sandbox activity; the events then reach endpoints and `lastro listen`. */
export async function trigger(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {});
  if (values.help) {
    console.log(TRIGGER_HELP);
    return 0;
  }
  const [type, ...rest] = positionals;
  if (!type || rest.length > 0) throw new UsageError('name one event type');
  const run = TRIGGERS[type];
  if (!run)
    throw new UsageError(`lastro trigger cannot make ${type}; it makes ${Object.keys(TRIGGERS).join(', ')}`);
  const client = clientOf(values);
  if (client.environment !== 'sandbox')
    throw new UsageError('lastro trigger works in sandbox only (a lastro_test_ key)');
  const made = await run(client);
  console.log(`Triggered ${type}: ${made.kind} ${made.id}`);
  return 0;
}
