/** The workspace's id, which every API call names in X-Workspace-Id, and a call ready to paste. */
import type { Env } from './api.ts';
import { CopyButton } from './components.tsx';
import { curlExample } from './curl.ts';
import { t } from './i18n.ts';

export function WorkspaceId({ id }: { id: string }) {
  return (
    <div className="workspace-id">
      <h2>{t('Workspace ID')}</h2>
      <p className="hint">{t('Every API call sends it in the X-Workspace-Id header.')}</p>
      <code data-testid="workspace-id">{id}</code> <CopyButton text={id} label={t('Copy workspace ID')} />
    </div>
  );
}

export function CurlExample({ env, workspaceId }: { env: Env; workspaceId: string }) {
  const text = curlExample(location.origin, env, workspaceId);
  return (
    <div className="curl">
      <h2>{t('Try it with curl')}</h2>
      <p className="hint">{t('Replace YOUR_KEY with the key you created.')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls sideways must take focus so a keyboard can scroll it */}
      <section className="scroll" tabIndex={0} aria-label={t('curl example')}>
        <pre>
          <code data-testid="curl-example">{text}</code>
        </pre>
      </section>
      <CopyButton text={text} label={t('Copy command')} />
    </div>
  );
}
