import { metricsRegistry } from '../../src/platform/metrics.ts';

/** A counter's value summed over the series whose labels include every one of `labels`. */
export async function counted(metric: string, labels: Record<string, string>): Promise<number> {
  const { values } = await metricsRegistry.getSingleMetric(metric)!.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))
    .reduce((sum, v) => sum + v.value, 0);
}
