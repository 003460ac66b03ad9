import type { LoginResult } from './schema.ts';

/** Who is signed in: not a credential (the session token lives only in the HttpOnly cookie). */
export interface Session {
  email: string;
  twoFactor: boolean;
  workspaces: Pick<LoginResult['workspaces'][number], 'id' | 'display_name'>[];
  workspaceId: string;
}

const KEY = 'lastro.session';

export function loadSession(): Session | null {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    return stored?.workspaceId ? stored : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) localStorage.setItem(KEY, JSON.stringify(session));
  else localStorage.removeItem(KEY);
}
