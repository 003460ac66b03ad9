import { useEffect, useState } from 'react';
import { api, type Env, setScope, whenSignedOut } from './api.ts';
import { AuthScreen } from './auth.tsx';
import { getLocale, type Locale, setLocale, t } from './i18n.ts';
import { PAGES, pageFor } from './pages/index.tsx';
import { href, onLinkClick, useRoute } from './router.ts';
import { loadSession, type Session, saveSession } from './session.ts';

const ENV_KEY = 'lastro.env';

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [env, setEnv] = useState<Env>(localStorage.getItem(ENV_KEY) === 'live' ? 'live' : 'sandbox');
  const [acting, setActing] = useState<{ id: string; name: string } | null>(null);
  const [locale, setLocaleState] = useState<Locale>(getLocale());
  const [menuOpen, setMenuOpen] = useState(false);
  const route = useRoute();
  // On a phone the menu folds away again once a section is chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route closes the menu
  useEffect(() => setMenuOpen(false), [route]);

  setScope({ workspaceId: session?.workspaceId ?? null, env, subaccountId: acting?.id ?? null });

  useEffect(() => {
    whenSignedOut(() => {
      saveSession(null);
      setSession(null);
    });
  }, []);

  const signIn = (next: Session) => {
    saveSession(next);
    setSession(next);
  };

  const title = pageFor(route).title;
  useEffect(() => {
    document.title = `${t(title)} · Lastro`;
    document.getElementById('page-title')?.focus();
  }, [title]);

  if (!session)
    return (
      <>
        <LocaleSwitch locale={locale} onChange={setLocaleState} />
        <AuthScreen onSignedIn={signIn} />
      </>
    );

  const switchEnv = (next: Env) => {
    localStorage.setItem(ENV_KEY, next);
    setActing(null);
    setEnv(next);
  };
  const logout = async () => {
    await api('POST', '/v1/auth/logout').catch(() => undefined);
    saveSession(null);
    setSession(null);
  };
  const Current = pageFor(route).component;
  const context = {
    session,
    env,
    acting,
    actOn: setActing,
    updateSession: signIn,
  };

  return (
    <div className={`shell env-${env}`} key={`${locale}-${env}-${acting?.id ?? ''}-${session.workspaceId}`}>
      <a className="skip" href="#main">
        {t('Skip to content')}
      </a>
      {env === 'sandbox' ? (
        <p className="banner sandbox" role="note">
          {t('Sandbox: test data only. No real money moves here.')}
        </p>
      ) : (
        <p className="banner live" role="note">
          {t('Live: real money. Every action moves real funds.')}
        </p>
      )}
      {acting && (
        <p className="banner acting" role="note">
          {t('Acting on sub-account {name}.', { name: acting.name })}{' '}
          <button type="button" className="link" onClick={() => setActing(null)}>
            {t('Stop acting')}
          </button>
        </p>
      )}
      <header className="top">
        <button
          type="button"
          className="menu-button secondary"
          aria-expanded={menuOpen}
          aria-controls="sections"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {t('Menu')}
        </button>
        <span className="brand-name">Lastro</span>
        <span className="workspace">
          {session.workspaces.find((w) => w.id === session.workspaceId)?.display_name ?? ''}
        </span>
        <fieldset className="env-switch">
          <legend className="visually-hidden">{t('Environment')}</legend>
          {(['sandbox', 'live'] as const).map((name) => (
            <button key={name} type="button" aria-pressed={env === name} onClick={() => switchEnv(name)}>
              {name === 'sandbox' ? t('Sandbox') : t('Live')}
            </button>
          ))}
        </fieldset>
        <LocaleSwitch locale={locale} onChange={setLocaleState} />
        <span className="user">{session.email}</span>
        <button type="button" className="secondary" onClick={logout}>
          {t('Log out')}
        </button>
      </header>
      <div className="body">
        <nav aria-label={t('Sections')} id="sections" className={menuOpen ? 'open' : undefined}>
          <ul>
            {PAGES.filter((page) => !page.hidden && (!page.sandboxOnly || env === 'sandbox')).map((page) => (
              <li key={page.path}>
                <a
                  href={href(page.path)}
                  aria-current={pageFor(route).path === page.path ? 'page' : undefined}
                  onClick={(event) => onLinkClick(event, page.path)}
                >
                  {t(page.title)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">
          <Current {...context} route={route} />
        </main>
      </div>
    </div>
  );
}

function LocaleSwitch({ locale, onChange }: { locale: Locale; onChange: (next: Locale) => void }) {
  return (
    <label className="locale">
      <span className="visually-hidden">{t('Language')}</span>
      <select
        value={locale}
        onChange={(event) => {
          const next = event.target.value as Locale;
          setLocale(next);
          onChange(next);
        }}
      >
        <option value="pt-BR">Português</option>
        <option value="en">English</option>
      </select>
    </label>
  );
}
