import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { CopyButton, Field, FormShell, Page, useForm, useLoad } from '../components.tsx';
import { t } from '../i18n.ts';
import type { TwoFactorEnabled, TwoFactorSetup, Workspace } from '../schema.ts';
import { WorkspaceId } from '../workspace-id.tsx';
import { RecoveryCodesOnce, RegenerateRecoveryCodes } from './recovery-codes.tsx';
import type { PageProps } from './types.ts';

/** Two-factor authentication (TOTP: a QR of the otpauth URL, then a code to confirm) and production. */
export function Security({ session, updateSession, env }: PageProps) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const start = useForm({});
  const confirm = useForm({ otp_code: '' });
  const [codes, setCodes] = useState<string[] | null>(null);
  useEffect(() => {
    if (setup) void QRCode.toDataURL(setup.otpauth_url, { margin: 1, width: 220 }).then(setQr);
  }, [setup]);

  return (
    <Page title={t('Security')}>
      <h2>{t('Two-factor authentication')}</h2>
      {codes && <RecoveryCodesOnce codes={codes} email={session.email} onDone={() => setCodes(null)} />}
      {session.twoFactor ? (
        <>
          <p className="success" role="status">
            {t('Two-factor authentication is on. Log in and crypto sends ask for a code from your app.')}
          </p>
          {!codes && <RegenerateRecoveryCodes onCodes={setCodes} />}
        </>
      ) : !setup ? (
        <FormShell
          form={start}
          submitLabel={t('Turn on two-factor authentication')}
          onSubmit={() =>
            start.submit(async () => {
              setSetup(await api<TwoFactorSetup>('POST', '/v1/auth/2fa/setup'));
            })
          }
        >
          <p>{t('Protect log in and crypto sends with a code from an authenticator app.')}</p>
        </FormShell>
      ) : (
        <div className="two-factor">
          <p>{t('Scan this code with your authenticator app, then type the code it shows.')}</p>
          {qr && (
            <img
              src={qr}
              alt={t('QR code to add Lastro to your authenticator app')}
              width={220}
              height={220}
            />
          )}
          <p>
            {t('Or enter this key by hand:')} <code data-testid="totp-secret">{setup.secret}</code>{' '}
            <CopyButton text={setup.secret} />
          </p>
          <FormShell
            form={confirm}
            submitLabel={t('Confirm and turn on')}
            onSubmit={() =>
              confirm.submit(async (values) => {
                const result = await api<TwoFactorEnabled>('POST', '/v1/auth/2fa/enable', {
                  otp_code: values.otp_code.replace(/\s/g, ''),
                });
                setCodes(result.recovery_codes);
                updateSession({ ...session, twoFactor: true });
              })
            }
          >
            <Field
              form={confirm}
              name="otp_code"
              label={t('Authenticator code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
            />
          </FormShell>
        </div>
      )}
      <Production env={env} />
      <WorkspaceId id={session.workspaceId} />
    </Page>
  );
}

function Production({ env }: { env: string }) {
  const workspace = useLoad<Workspace>('/workspace');
  const form = useForm({});
  if (!workspace.data) return null;
  const enabled = workspace.data.production_enabled;
  return (
    <>
      <h2>{t('Production')}</h2>
      <p>
        {enabled
          ? t('Production is enabled: live keys work.')
          : t('Production is off: live keys are refused until you enable it.')}
        {env === 'sandbox' && ` ${t('You are in the sandbox now; switch to Live at the top to use it.')}`}
      </p>
      <FormShell
        form={form}
        submitLabel={enabled ? t('Disable production') : t('Enable production')}
        onSubmit={() =>
          form.submit(async () => {
            await api('PATCH', '/workspace', { production_enabled: !enabled });
            workspace.reload();
            return enabled ? t('Production disabled.') : t('Production enabled.');
          })
        }
      >
        {null}
      </FormShell>
    </>
  );
}
