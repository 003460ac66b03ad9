import { api } from '../api.ts';
import type { FormState } from '../components.tsx';
import { t } from '../i18n.ts';

/** The sandbox's stand-in for compliance: approve or reject a KYC case. */
export function KycDecision({
  kycId,
  form,
  onDone,
}: {
  kycId: string;
  form: FormState<Record<string, string>>;
  onDone: () => void;
}) {
  const decide = (verdict: 'approve' | 'reject') =>
    form.submit(async () => {
      await api('POST', `/simulate/kyc/${kycId}/${verdict}`, {});
      onDone();
    });
  return (
    <span className="actions">
      <button type="button" onClick={() => decide('approve')}>
        {t('Approve')}
      </button>
      <button type="button" className="danger" onClick={() => decide('reject')}>
        {t('Reject')}
      </button>
    </span>
  );
}
