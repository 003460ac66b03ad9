/** The two environments of every workspace, and the clock: leaf types every layer may import. */
export type Environment = 'sandbox' | 'live';

export const normalizeEnvironment = (env: string): Environment | undefined =>
  env === 'sandbox' || env === 'test' ? 'sandbox' : env === 'live' ? 'live' : undefined;

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
