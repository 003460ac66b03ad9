import { describe, expect, it } from 'vitest';
import { isRetryable, isStalePlan } from './types.ts';

// What pg hands over for the error: the fields PostgreSQL sent, the message in the server's language.
const refused = (message: string, routine: string) =>
  Object.assign(new Error(message), { code: '0A000', routine });

describe('a statement refused because a migration changed its columns', () => {
  it('is recognised, and retried, whatever language the server answers in', () => {
    const portuguese = refused('o plano em cache não deve mudar o tipo resultante', 'RevalidateCachedQuery');
    expect(isStalePlan(portuguese)).toBe(true);
    expect(isRetryable(portuguese)).toBe(true);
    expect(isStalePlan(refused('cached plan must not change result type', 'RevalidateCachedQuery'))).toBe(
      true,
    );
  });

  it('is not confused with another unsupported feature', () => {
    expect(isStalePlan(refused('cannot use a cursor here', 'PerformCursorOpen'))).toBe(false);
    expect(isRetryable(refused('cannot use a cursor here', 'PerformCursorOpen'))).toBe(false);
  });
});
