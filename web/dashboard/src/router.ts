import { useEffect, useState } from 'react';

const BASE = '/dashboard/';

/** The path after /dashboard/, e.g. "payments/0193…". */
const current = () => (location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '');

export function navigate(to: string): void {
  history.pushState(null, '', BASE + to);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): string {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return route;
}

export const href = (to: string) => BASE + to;

/** An in-app link: a real href (open in a new tab works) that navigates without a reload. */
export function onLinkClick(event: React.MouseEvent<HTMLAnchorElement>, to: string): void {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(to);
}
