import { randomUUID } from 'node:crypto';
import type { App } from '../../src/platform/schema.ts';

export interface Owner {
  email: string;
  password: string;
  sessionToken: string;
  workspaceId: string;
  defaultPartyId: string;
  userId: string;
}

export const PASSWORD = 'correct horse battery staple';

export async function signupOwner(app: App, name = 'Acme Pagamentos'): Promise<Owner> {
  const email = `owner-${randomUUID()}@example.com`;
  const res = await app.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    payload: { email, password: PASSWORD, workspace_name: name },
  });
  if (res.statusCode !== 200) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const { data } = res.json();
  return {
    email,
    password: PASSWORD,
    sessionToken: data.session_token,
    workspaceId: data.workspace.id,
    defaultPartyId: data.workspace.default_party_id,
    userId: data.user.id,
  };
}

/** Headers of a call by `credential` on `workspaceId`. */
export const authHeaders = (credential: string, workspaceId: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${credential}`,
  'x-workspace-id': workspaceId,
  ...extra,
});

export async function createApiKey(
  app: App,
  owner: Owner,
  env: 'sandbox' | 'live' = 'sandbox',
  body: { name?: string; party_id?: string } = {},
): Promise<{ id: string; secret: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/${env}/api-keys`,
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
    payload: { name: body.name ?? 'test key', ...body },
  });
  if (res.statusCode !== 200) throw new Error(`key creation failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export async function enableProduction(app: App, owner: Owner): Promise<void> {
  const res = await app.inject({
    method: 'PATCH',
    url: '/v1/live/workspace',
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
    payload: { production_enabled: true },
  });
  if (res.statusCode !== 200) throw new Error(`enable production failed: ${res.body}`);
}

/** A small client bound to one credential and workspace. */
export function client(app: App, credential: string, workspaceId: string) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: authHeaders(credential, workspaceId, headers),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('POST', url, payload ?? {}, headers),
    put: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('PUT', url, payload ?? {}, headers),
    patch: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('PATCH', url, payload ?? {}, headers),
    delete: (url: string, headers?: Record<string, string>) => call('DELETE', url, undefined, headers),
  };
}
