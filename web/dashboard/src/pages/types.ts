import type { Env } from '../api.ts';
import type { Session } from '../session.ts';

export interface PageProps {
  session: Session;
  env: Env;
  acting: { id: string; name: string } | null;
  actOn: (subaccount: { id: string; name: string } | null) => void;
  updateSession: (session: Session) => void;
  route: string;
}
