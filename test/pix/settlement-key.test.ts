/** The settlement key owner routes: PUT/GET/DELETE per environment, validation, audit, session only. */
import { afterAll, describe, expect, it } from 'vitest';
import { CNPJ, CPF, EVP, startWorld, type Workspace } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace();

const URL = (env: string) => `/v1/${env}/settlement-key`;
const BODY = { pix_key: 'Ana@Example.com', holder_name: ' Ana Souza ', holder_document: '529.982.247-25' };

async function auditActions(w: Workspace, env = 'sandbox') {
  const res = await w.session.get(`/v1/${env}/audit-events`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { action: string; environment: string | null; actor_type: string }[]).filter(
    (e) => e.action.startsWith('settlement_key.'),
  );
}

describe('settlement key', () => {
  it('PUT stores it normalized, GET shows it, per environment', async () => {
    expect((await ws.session.get(URL('sandbox'))).statusCode).toBe(404);
    const put = await ws.session.put(URL('sandbox'), BODY);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({
      workspace_id: ws.owner.workspaceId,
      environment: 'sandbox',
      pix_key: 'ana@example.com',
      pix_key_type: 'email',
      holder_name: 'Ana Souza',
      holder_document: CPF,
    });
    const get = await ws.session.get(URL('sandbox'));
    expect(get.statusCode).toBe(200);
    expect(get.json().data).toEqual(put.json().data);
    // the test alias is the sandbox
    expect((await ws.session.get(URL('test'))).json().data).toEqual(put.json().data);
    // live has none of its own yet
    const live = await ws.session.get(URL('live'));
    expect(live.statusCode).toBe(404);
    expect(live.json().error).toBe('not_found');

    const livePut = await ws.session.put(URL('live'), {
      pix_key: EVP,
      holder_name: 'Acme Ltda',
      holder_document: '11.222.333/0001-81',
    });
    expect(livePut.statusCode, livePut.body).toBe(200);
    expect(livePut.json().data).toMatchObject({
      environment: 'live',
      pix_key_type: 'evp',
      holder_document: CNPJ,
    });
    expect((await ws.session.get(URL('sandbox'))).json().data.pix_key).toBe('ana@example.com');
  });

  it('PUT again replaces it; every change writes an audit event', async () => {
    const w = await world.workspace('Audit');
    await w.session.put(URL('sandbox'), BODY);
    expect(await auditActions(w)).toHaveLength(1);
    const replaced = await w.session.put(URL('sandbox'), {
      pix_key: '+5511987654321',
      holder_name: 'Ana',
      holder_document: CPF,
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data).toMatchObject({ pix_key: '+5511987654321', pix_key_type: 'phone' });
    const typed = await w.session.put(URL('sandbox'), {
      pix_key: '529.982.247-25',
      pix_key_type: 'cpf',
      holder_name: 'Ana',
      holder_document: CPF,
    });
    expect(typed.json().data).toMatchObject({ pix_key: CPF, pix_key_type: 'cpf' });
    const del = await w.session.delete(URL('sandbox'));
    expect(del.statusCode).toBe(200);
    expect(del.json().data.pix_key).toBe(CPF);
    expect((await w.session.get(URL('sandbox'))).statusCode).toBe(404);
    const again = await w.session.delete(URL('sandbox'));
    expect(again.statusCode).toBe(404);

    const actions = await auditActions(w);
    expect(actions.map((e) => e.action).sort()).toEqual([
      'settlement_key.deleted',
      'settlement_key.set',
      'settlement_key.set',
      'settlement_key.set',
    ]);
    for (const event of actions) expect(event).toMatchObject({ environment: 'sandbox', actor_type: 'user' });
  });

  it('refused changes write nothing: bad key → 400 invalid_pix_key, bad holder document → 400 invalid_request', async () => {
    const w = await world.workspace('Validation');
    const bad: [Record<string, unknown>, string][] = [
      [{ ...BODY, pix_key: 'not a key' }, 'invalid_pix_key'],
      [{ ...BODY, pix_key: '52998224724' }, 'invalid_pix_key'],
      [{ ...BODY, pix_key: EVP.toUpperCase() }, 'invalid_pix_key'],
      [{ ...BODY, pix_key: 'ana@example.com', pix_key_type: 'phone' }, 'invalid_pix_key'],
      [{ ...BODY, holder_document: '52998224724' }, 'invalid_request'],
      [{ ...BODY, holder_document: '11222333000180' }, 'invalid_request'],
      [{ ...BODY, holder_document: 'abcdefghijkl' }, 'invalid_request'],
      [{ ...BODY, holder_name: '' }, 'invalid_request'],
      [{ pix_key: 'ana@example.com', holder_document: CPF }, 'invalid_request'],
      [{ ...BODY, pix_key_type: 'iban' }, 'invalid_request'],
    ];
    for (const [body, code] of bad) {
      const res = await w.session.put(URL('sandbox'), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe(code);
    }
    const badKey = await w.session.put(URL('sandbox'), {
      ...BODY,
      pix_key: 'ana@example.com',
      pix_key_type: 'phone',
    });
    expect(badKey.json().details).toEqual([{ field: 'body.pix_key', issue: 'is not a valid phone key' }]);
    expect((await w.session.get(URL('sandbox'))).statusCode).toBe(404);
    expect(await auditActions(w)).toHaveLength(0);
  });

  it('API keys get 403 forbidden on every verb, and change nothing', async () => {
    await ws.session.put(URL('sandbox'), BODY);
    const before = (await ws.session.get(URL('sandbox'))).json().data;
    const audits = (await auditActions(ws)).length;
    for (const res of [
      await ws.api.get(URL('sandbox')),
      await ws.api.put(URL('sandbox'), { ...BODY, pix_key: EVP }),
      await ws.api.delete(URL('sandbox')),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect((await ws.session.get(URL('sandbox'))).json().data).toEqual(before);
    expect(await auditActions(ws)).toHaveLength(audits);
  });

  it("another workspace's owner neither sees nor changes it", async () => {
    const other = await world.workspace('Other');
    expect((await other.session.get(URL('sandbox'))).statusCode).toBe(404);
    expect((await other.session.delete(URL('sandbox'))).statusCode).toBe(404);
    expect((await ws.session.get(URL('sandbox'))).statusCode).toBe(200);
  });
});
