/**
 * A customer's document is set when it is created; a PATCH naming it answered 200 and changed
 * nothing, so the caller believed it changed. It is now refused, naming the field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CPF, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('customer PATCH body', () => {
  it('a PATCH with a field a customer cannot change (document_number) is refused and changes nothing', async () => {
    const ws = await world.workspace('Customers');
    const created = await ws.api.post('/v1/sandbox/customers', { display_name: 'Bia' });
    const id = created.json().data.id;
    const res = await ws.api.patch(`/v1/sandbox/customers/${id}`, {
      display_name: 'Beatriz',
      document_number: CPF,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([{ field: 'body.document_number', issue: 'unknown field' }]);
    expect((await ws.api.get(`/v1/sandbox/customers/${id}`)).json().data).toMatchObject({
      display_name: 'Bia',
      document_number: null,
    });
  });
});
