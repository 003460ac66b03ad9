/** The keys page's curl example: the workspace's id, the environment, a placeholder for the key. */
import { expect, it } from 'vitest';
import { curlExample } from '../../web/dashboard/src/curl.ts';

it('names the workspace and the environment, and never a real key', () => {
  const id = '01936f3e-0000-7000-8000-000000000001';
  const text = curlExample('https://lastro.example', 'sandbox', id);
  expect(text).toContain('https://lastro.example/v1/sandbox/balances');
  expect(text).toContain(`-H "X-Workspace-Id: ${id}"`);
  expect(text).toContain('Authorization: Bearer lastro_test_sk_YOUR_KEY');
  expect(curlExample('https://lastro.example', 'live', id)).toContain('lastro_live_sk_YOUR_KEY');
});
