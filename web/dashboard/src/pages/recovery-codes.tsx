/** 2FA recovery codes: shown once (copy, download as a file), and a new set on demand. */
import { useState } from 'react';
import { api } from '../api.ts';
import { CopyButton, Field, FormShell, useForm } from '../components.tsx';
import { t } from '../i18n.ts';

/** The text of the file and of the copy: one code a line, under a line saying what they are. */
export const recoveryCodesText = (codes: readonly string[], email: string) =>
  [`Lastro — ${email}`, ...codes, ''].join('\n');

function download(codes: readonly string[], email: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([recoveryCodesText(codes, email)], { type: 'text/plain' }));
  link.download = 'lastro-recovery-codes.txt';
  link.click();
  // The click has started the download; the URL is let go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

export function RecoveryCodesOnce({
  codes,
  email,
  onDone,
}: {
  codes: readonly string[];
  email: string;
  onDone: () => void;
}) {
  return (
    <div className="secret recovery-codes" role="alert">
      <p>
        <strong>{t('Save these recovery codes now: they are shown only once.')}</strong>
      </p>
      <p>{t('Each logs in once instead of an authenticator code, if you lose your phone.')}</p>
      <ol className="codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className="actions">
        <CopyButton text={recoveryCodesText(codes, email)} label={t('Copy codes')} />
        <button type="button" className="secondary" onClick={() => download(codes, email)}>
          {t('Download codes')}
        </button>
        <button type="button" onClick={onDone}>
          {t('I saved them')}
        </button>
      </p>
    </div>
  );
}

/** A new set (the old one stops working), proven by a current code. */
export function RegenerateRecoveryCodes({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const form = useForm({ otp_code: '' });
  return (
    <FormShell
      form={form}
      title={t('Recovery codes')}
      submitLabel={t('Make new recovery codes')}
      onSubmit={() =>
        form.submit(async (values) => {
          const result = await api<{ recovery_codes: string[] }>('POST', '/v1/auth/2fa/recovery-codes', {
            otp_code: values.otp_code.replace(/\s/g, ''),
          });
          form.reset();
          onCodes(result.recovery_codes);
        })
      }
    >
      <p>{t('A new set replaces the old one: the old codes stop working.')}</p>
      <Field
        form={form}
        name="otp_code"
        label={t('Authenticator code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
      />
    </FormShell>
  );
}
