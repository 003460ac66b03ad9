/** A setting that is missing or malformed; the message names it. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}

/** A whole-number setting from `min` to `max`, `fallback` when unset; a ConfigError naming it otherwise. */
export function wholeSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
