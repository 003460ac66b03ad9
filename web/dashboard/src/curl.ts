import type { Env } from './api.ts';

/** A first call to try: the balances, with a placeholder where the key goes (never a real one). */
export const curlExample = (origin: string, env: Env, workspaceId: string) =>
  [
    `curl ${origin}/v1/${env}/balances \\`,
    `  -H "Authorization: Bearer lastro_${env === 'live' ? 'live' : 'test'}_sk_YOUR_KEY" \\`,
    `  -H "X-Workspace-Id: ${workspaceId}"`,
  ].join('\n');
