import { useState } from 'react';
import { ApiError, api } from './api.ts';
import { Field, FormShell, useForm } from './components.tsx';
import { t } from './i18n.ts';
import type { LoginResult, SignupResult } from './schema.ts';
import type { Session } from './session.ts';

/** Log in (with the authenticator code once 2FA is on) or create an account. */
export function AuthScreen({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [mode, setMode] = useState<'login' | 'signup'>('login');
  const [needsOtp, setNeedsOtp] = useState(false);
  const login = useForm({ email: '', password: '', otp_code: '' });
  const signup = useForm({ email: '', password: '', workspace_name: '' });

  const doLogin = () =>
    login.submit(async (values) => {
      try {
        const result = await api<LoginResult>('POST', '/v1/auth/login', {
          email: values.email,
          password: values.password,
          ...(values.otp_code ? { otp_code: values.otp_code.replace(/\s/g, '') } : {}),
        });
        const first = result.workspaces[0];
        if (!first) throw new Error(t('This account has no workspace.'));
        onSignedIn({
          email: result.user.email,
          twoFactor: result.user.two_factor_enabled,
          workspaces: result.workspaces,
          workspaceId: first.id,
        });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'otp_required') {
          setNeedsOtp(true);
          login.fail('otp_code', t('Enter the 6-digit code from your authenticator app or a recovery code.'));
          return;
        }
        throw error;
      }
    });

  const doSignup = () =>
    signup.submit(async (values) => {
      const result = await api<SignupResult>('POST', '/v1/auth/signup', values);
      onSignedIn({
        email: result.user.email,
        twoFactor: false,
        workspaces: [{ id: result.workspace.id, display_name: result.workspace.display_name }],
        workspaceId: result.workspace.id,
      });
    });

  return (
    <main className="auth">
      <p className="brand-name">Lastro</p>
      {mode === 'login' ? (
        <>
          <h1>{t('Log in')}</h1>
          <FormShell form={login} onSubmit={doLogin} submitLabel={t('Log in')}>
            <Field
              form={login}
              name="email"
              label={t('E-mail')}
              type="email"
              autoComplete="username"
              required
            />
            <Field
              form={login}
              name="password"
              label={t('Password')}
              type="password"
              autoComplete="current-password"
              required
            />
            {needsOtp && (
              <Field
                form={login}
                name="otp_code"
                label={t('Authenticator code or recovery code')}
                autoComplete="one-time-code"
                hint={t('The 6-digit code your authenticator app shows now, or one of your recovery codes.')}
              />
            )}
          </FormShell>
          <p>
            {t('New to Lastro?')}{' '}
            <button type="button" className="link" onClick={() => setMode('signup')}>
              {t('Create an account')}
            </button>
          </p>
        </>
      ) : (
        <>
          <h1>{t('Create an account')}</h1>
          <FormShell form={signup} onSubmit={doSignup} submitLabel={t('Create account')}>
            <Field
              form={signup}
              name="email"
              label={t('E-mail')}
              type="email"
              autoComplete="username"
              required
            />
            <Field
              form={signup}
              name="password"
              label={t('Password')}
              type="password"
              autoComplete="new-password"
              hint={t('At least 12 characters.')}
              required
            />
            <Field form={signup} name="workspace_name" label={t('Business name')} required />
          </FormShell>
          <p>
            {t('Already have an account?')}{' '}
            <button type="button" className="link" onClick={() => setMode('login')}>
              {t('Log in')}
            </button>
          </p>
        </>
      )}
    </main>
  );
}
