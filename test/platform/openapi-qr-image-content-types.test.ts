/**
 * GET /v1/{env}/payments/{id}/qr.png and qr.svg answer image/png and image/svg+xml, but the
 * OpenAPI document (generated from src/modules/pix/routes/qr.ts:26-30) says their 200 response is
 * `application/json` holding a string. A client generated from /openapi.json would try to parse the
 * PNG as JSON. The document must describe the route truthfully.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('QR docs');

describe('OpenAPI of the QR image routes', () => {
  it.each([
    ['png', 'image/png'],
    ['svg', 'image/svg+xml'],
  ])('qr.%s: the served content type is the documented one', async (extension, type) => {
    const charge = await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000' });
    expect(charge.statusCode, charge.body).toBe(200);
    const image = await ws.api.get(`/v1/sandbox/payments/${charge.json().data.id}/qr.${extension}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toContain(type);

    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = Object.keys(
      document.paths[`/v1/{env}/payments/{id}/qr.${extension}`].get.responses['200'].content,
    );
    expect(documented).toEqual([type]);
  });
});
