import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { closeBodySchema, JSON_BOUND_KEYWORDS } from '../../src/platform/body-schema.ts';
import type { RouteEntry } from '../../src/platform/context.ts';

/**
 * What the route-catalogue test asks of every documented route (CONTRIBUTING.md, "Documenting a
 * route"), each gap named so the author knows what to write and where.
 */
type Schema = Record<string, unknown>;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
for (const keyword of JSON_BOUND_KEYWORDS) ajv.addKeyword(keyword);

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The alternatives of a property (Nullable(X) is X or null): each is described through the property. */
const branchesOf = (schema: Schema): Schema[] =>
  [...((schema.anyOf ?? schema.oneOf ?? []) as unknown[]), ...((schema.allOf ?? []) as unknown[])].filter(
    isSchema,
  );

/** Every property under `path` without a description of its own, objects and array items included. */
export function undescribed(schema: unknown, path: string, out: string[] = []): string[] {
  if (!isSchema(schema)) return out;
  for (const branch of branchesOf(schema)) undescribed(branch, path, out);
  if (isSchema(schema.items)) undescribed(schema.items, `${path}[]`, out);
  if (!isSchema(schema.properties)) return out;
  for (const [name, property] of Object.entries(schema.properties)) {
    const at = `${path}.${name}`;
    const described = (s: Schema) => typeof s.description === 'string' && s.description.trim() !== '';
    if (isSchema(property) && !described(property) && !branchesOf(property).some(described)) out.push(at);
    undescribed(property, at, out);
  }
  return out;
}

/** The problems of each example against its schema, as `what: /path message`. */
function invalidExamples(what: string, schema: Schema, examples: unknown[]): string[] {
  const validate = ajv.compile(schema);
  return examples.flatMap((example, index) =>
    validate(example)
      ? []
      : [
          `${what} example ${index + 1} does not match its schema: ${(validate.errors ?? [])
            .map((e) => `${e.instancePath || '/'} ${e.message}`)
            .join('; ')}`,
        ],
  );
}

const successOf = (route: RouteEntry): Schema | undefined => {
  const response = route.schema.response as Record<string, unknown> | undefined;
  const key = Object.keys(response ?? {}).find((status) => /^2\d\d$/.test(status));
  return key && isSchema(response?.[key]) ? (response?.[key] as Schema) : undefined;
};

function exampleGaps(route: RouteEntry): string[] {
  const gaps: string[] = [];
  const body = route.schema.body as Schema | undefined;
  if (body) {
    const examples = body.examples as unknown[] | undefined;
    if (!examples?.length) gaps.push('no example request body (body schema: `examples: [...]`)');
    else gaps.push(...invalidExamples('request body', closeBodySchema(body) as Schema, examples));
  }
  const success = successOf(route);
  // A file or an image (CSV, PNG) is documented by its media types, each with its own example.
  const media = isSchema(success?.content) ? Object.values(success.content as Schema) : undefined;
  if (media) {
    if (!media.every((m) => isSchema(m) && (m.example !== undefined || m.examples !== undefined))) {
      gaps.push('no example of its file answer (`example` beside each media type of the 2xx content)');
    }
    return gaps;
  }
  const examples = success?.examples as unknown[] | undefined;
  if (!examples?.length)
    gaps.push('no example response (respond(Data, { example }) or `examples` on the 2xx schema)');
  else if (success) gaps.push(...invalidExamples('response', success, examples));
  return gaps;
}

/** The route's own error list (config.errors), if it declares one. */
export const errorsOf = (route: RouteEntry) => (route.config as { errors?: readonly string[] }).errors;

/** Everything the route lacks, each as one line naming the route. */
export function routeDocGaps(route: RouteEntry & { schema: { description?: string } }): string[] {
  const gaps: string[] = [];
  if (!route.schema.description?.trim()) gaps.push('no description (schema.description)');
  gaps.push(...exampleGaps(route));
  const parts = ['body', 'querystring', 'params', 'headers'] as const;
  for (const part of parts) {
    for (const at of undescribed((route.schema as Record<string, unknown>)[part], part)) {
      gaps.push(`${at} has no description`);
    }
  }
  const success = successOf(route);
  const data = isSchema(success?.properties) ? (success.properties as Schema).data : undefined;
  // The envelope's `data` is the answer itself; what it holds is described field by field.
  for (const at of undescribed(data ?? success, data ? 'response.data' : 'response')) {
    gaps.push(`${at} has no description`);
  }
  if (!errorsOf(route)) gaps.push('no error list (config.errors: the codes its handler and services throw)');
  return gaps.map((gap) => `${route.method} ${route.url}: ${gap}`);
}
