import type { Environment } from '../platform/environment.ts';
import { providerCallDuration, providerErrors } from '../platform/metrics.ts';

const proxies = new WeakMap<object, Map<string, object>>();

/**
 * The provider seen through a proxy that times each method call (rail, method name, environment,
 * ok/error) without touching the adapter. Methods run on the provider itself (private fields work);
 * one proxy per provider and environment, so identity is stable across registry lookups.
 */
export function instrumentProvider<P extends object>(rail: string, environment: Environment, provider: P): P {
  const byEnvironment = proxies.get(provider) ?? new Map<string, object>();
  proxies.set(provider, byEnvironment);
  const known = byEnvironment.get(`${rail}:${environment}`);
  if (known) return known as P;
  const proxy = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor')
        return value;
      return (...args: unknown[]) => timed(rail, property, environment, () => value.apply(target, args));
    },
  });
  byEnvironment.set(`${rail}:${environment}`, proxy);
  return proxy;
}

function timed(rail: string, operation: string, environment: Environment, call: () => unknown): unknown {
  const stop = providerCallDuration.startTimer({ rail, operation, environment });
  const failed = (error: unknown) => {
    stop({ outcome: 'error' });
    providerErrors.inc({ rail, operation, environment });
    throw error;
  };
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    return failed(error);
  }
  if (result instanceof Promise)
    return result.then((value) => {
      stop({ outcome: 'ok' });
      return value;
    }, failed);
  stop({ outcome: 'ok' });
  return result;
}
