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
  description:
    'the 6-digit code of the authenticator app; at login, one unused recovery code is taken instead',
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

export const RecoveryCodes = Type.Array(
  Type.String({
    description: 'one recovery code, e.g. "k7m2q-x9dfa"; good once, at login, instead of otp_code',
  }),
  {
    description:
      'the 10 recovery codes, shown only in this answer (only their SHA-256 is stored); a new set replaces the old',
  },
);
export const RECOVERY_CODES_EXAMPLE = [
  'k7m2q-x9dfa',
  'p3wzr-4hn8c',
  'v6tbe-2jqmy',
  'a9sxk-7gd3u',
  'n5cfw-8rpzt',
  'h2umy-6kxae',
  'z4dqv-3tbwn',
  'e8rjs-5fmgk',
  'w7yca-9hpud',
  'g3ntx-2zevq',
];
/** The proof a sensitive 2FA action asks for: an authenticator code, or an unused recovery code. */
export const OtpOrRecoveryCode = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'the 6-digit code of the authenticator app, or one unused recovery code (spent by this call)',
});
