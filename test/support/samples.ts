/**
 * The smallest value a JSON schema accepts, built from the route's own schema: the shared auth suite
 * sends it so a check that runs after validation (a record of another tenant → 404) is reached on
 * every route, present and future, without a hand-written body per route.
 */
type Schema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  default?: unknown;
};

export const SAMPLE_UUID = '01890000-0000-7000-8000-000000000000';

export function sampleOf(schema: Schema | undefined): unknown {
  if (!schema) return {};
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleOf(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return SAMPLE_UUID;
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      if (schema.pattern === '^[0-9]{1,16}$') return '100';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default: {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = sampleOf(schema.properties?.[name]);
      return out;
    }
  }
}
