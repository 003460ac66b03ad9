import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../platform/schema.ts';
import { Workspace } from '../workspace/schemas.ts';

export const User = Type.Object({
  id: Uuid,
  email: Type.String(),
  two_factor_enabled: Type.Boolean(),
  created_at: Timestamp,
});

export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Password = Type.String({ minLength: 12, maxLength: 256 });
/** Any short text: a code of the wrong shape is a wrong code (401 otp_invalid), not a malformed request. */
export const OtpCode = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'the 6-digit code of the authenticator app',
});

export const SignupResult = Type.Object({
  user: User,
  workspace: Workspace,
  session_token: Type.String(),
  expires_at: Timestamp,
});
export const LoginResult = Type.Object({
  session_token: Type.String(),
  expires_at: Timestamp,
  user: User,
  workspaces: Type.Array(Type.Object({ id: Uuid, display_name: Type.String() })),
});
