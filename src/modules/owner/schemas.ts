import { Type } from 'typebox';
import { doc, Timestamp, Uuid } from '../../platform/schema.ts';
import { Workspace } from '../workspace/schemas.ts';

export const User = Type.Object({
  id: doc(Uuid, 'The owner account id.'),
  email: Type.String({ description: 'The e-mail the owner logs in with.' }),
  two_factor_enabled: Type.Boolean({ description: 'Whether login asks for an authenticator code.' }),
  created_at: doc(Timestamp, 'When the account was created.'),
});

export const USER_EXAMPLE = {
  id: '0194f39e-0000-7000-8000-00000000a001',
  email: 'ana@acme.com.br',
  two_factor_enabled: false,
  created_at: '2026-11-01T12:00:00.000Z',
};

export const Email = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'The e-mail to log in with.',
});
export const Password = Type.String({
  minLength: 12,
  maxLength: 256,
  description: 'At least 12 characters.',
});
/** Any short text: a code of the wrong shape is a wrong code (401 otp_invalid), not a malformed request. */
export const OtpCode = Type.String({
  minLength: 1,
  maxLength: 16,
  description:
    'the 6-digit code of the authenticator app; at login, one unused recovery code is taken instead',
});

const SessionToken = Type.String({
  description: 'lastro_sess_…: send it as Authorization: Bearer (also set as the lastro_session cookie).',
});
const SessionExpiry = doc(Timestamp, 'When the session ends; log in again after.');

export const SignupResult = Type.Object({
  user: doc(User, 'The owner account created.'),
  workspace: doc(Workspace, 'Its first workspace.'),
  session_token: SessionToken,
  expires_at: SessionExpiry,
});
export const LoginResult = Type.Object({
  session_token: SessionToken,
  expires_at: SessionExpiry,
  user: doc(User, 'The owner account.'),
  workspaces: Type.Array(
    Type.Object({
      id: doc(Uuid, 'A workspace id: send it as X-Workspace-Id.'),
      display_name: Type.String({ description: 'Its name.' }),
    }),
    { description: 'The workspaces the owner can act on.' },
  ),
});
export const SESSION_TOKEN_EXAMPLE = 'lastro_sess_7Hq2mX9pL4vR8tK1nW6zB3cF5dG0jS2a';

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
