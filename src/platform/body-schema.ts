/**
 * Request bodies refuse fields they do not know: a misspelt field dropped in silence changes what a
 * request does (a refund's `amount` instead of `amount_minor` refunds the whole charge). Route schemas
 * are written as plain objects; this closes them in one place, for the body validator and for the
 * OpenAPI document alike, so neither can drift from the other.
 */

import type { Ajv, FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object schema that says nothing about properties it does not list. */
const isUndeclaredObject = (schema: Schema) =>
  (schema.type === 'object' || isSchema(schema.properties)) &&
  schema.additionalProperties === undefined &&
  schema.patternProperties === undefined &&
  schema.unevaluatedProperties === undefined;

/** The property names of schemas that apply together, or undefined when one of them is open. */
function intersectionNames(members: unknown[]): string[] | undefined {
  const names: string[] = [];
  for (const member of members) {
    const own = namesOf(member);
    if (!own) return undefined;
    names.push(...own);
  }
  return names;
}

/**
 * The property names one conjunct lets through: its own, an inner intersection's, or any of a union's
 * branches' (the union itself still picks the branch). A branch that cannot be an object adds none.
 */
function namesOf(member: unknown): string[] | undefined {
  if (!isSchema(member)) return undefined;
  if (Array.isArray(member.allOf)) return intersectionNames(member.allOf);
  const branches = Array.isArray(member.anyOf) ? member.anyOf : member.oneOf;
  if (Array.isArray(branches)) {
    const names: string[] = [];
    for (const branch of branches) {
      if (isSchema(branch) && branch.type !== undefined && branch.type !== 'object') continue;
      const own = namesOf(branch);
      if (!own) return undefined;
      names.push(...own);
    }
    return names;
  }
  if (isSchema(member.properties) && isUndeclaredObject(member)) return Object.keys(member.properties);
  return undefined;
}

const mapValues = (record: Schema, fn: (value: unknown) => unknown): Schema =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));

/**
 * How a subschema meets the value: as its whole shape (closed), or beside other schemas that check the
 * same value (an intersection's member, a conditional's then/else, a union's branches beside an
 * object's own properties or inside any of these), which stay open, since closing one would refuse
 * the fields the others take.
 */
type Role = 'shape' | 'conjunct';

/**
 * A copy of a body schema in which every object schema that declares neither additionalProperties
 * nor patternProperties refuses other properties. A record (patternProperties, or an
 * additionalProperties schema: metadata) keeps its own rule. Union branches are closed one by one
 * (an alias variant knows its own fields); an intersection's members stay open and the intersection
 * itself is closed over all of their names, since a closed member would refuse the others' fields.
 */
export function closeBodySchema<T>(schema: T): T {
  return close(schema, 'shape') as T;
}

function close(schema: unknown, role: Role): unknown {
  if (Array.isArray(schema)) return schema.map((item) => close(item, 'shape'));
  if (!isSchema(schema)) return schema;
  const out: Schema = { ...schema };
  if (isSchema(schema.properties)) out.properties = mapValues(schema.properties, (s) => close(s, 'shape'));
  if (isSchema(schema.patternProperties))
    out.patternProperties = mapValues(schema.patternProperties, (s) => close(s, 'shape'));
  // `if`, `not` and `contains` only ask a question of the value, and closing one would change its
  // answer (a closed `if` is false once any other field is sent, so its `then` stops applying): they
  // stay as written.
  for (const key of ['items', 'additionalProperties']) {
    if (schema[key] !== undefined) out[key] = close(schema[key], 'shape');
  }
  for (const key of ['then', 'else']) {
    if (schema[key] !== undefined) out[key] = close(schema[key], 'conjunct');
  }
  // Beside the schema's own properties, a union's branches check the same object as they do.
  const branchRole = isSchema(schema.properties) ? 'conjunct' : role;
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as unknown[]).map((s) => close(s, branchRole));
  }
  if (Array.isArray(schema.allOf)) {
    out.allOf = schema.allOf.map((s) => close(s, 'conjunct'));
    const names = intersectionNames(schema.allOf);
    if (names && role === 'shape' && isUndeclaredAtTop(schema)) {
      out.properties = {
        ...Object.fromEntries(names.map((name) => [name, {}])),
        ...(out.properties as Schema),
      };
      out.additionalProperties = false;
    }
  } else if (role === 'shape' && isUndeclaredObject(schema)) {
    out.additionalProperties = false;
  }
  return out;
}

const isUndeclaredAtTop = (schema: Schema) =>
  schema.additionalProperties === undefined &&
  schema.patternProperties === undefined &&
  schema.unevaluatedProperties === undefined;

/** A failure as Ajv reports one, so the error handler maps both the same way. */
export interface SchemaIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  propertyName?: string;
}

/** The keyword of an unknown-field issue. */
export const UNKNOWN_FIELD = 'unknownField';

/** How many unknown fields an answer names at most (a body may carry thousands). */
export const MAX_UNKNOWN_FIELDS = 100;

const pointerPart = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Whether a closed schema takes a property of this name. */
function knows(schema: Schema, key: string): boolean {
  const branches = [...asArray(schema.anyOf), ...asArray(schema.oneOf)].filter(isSchema).filter(isObjectLike);
  if (branches.length > 0 && !isSchema(schema.properties)) return branches.some((b) => knows(b, key));
  if (!isObjectLike(schema)) return true;
  if (isSchema(schema.properties) && Object.hasOwn(schema.properties, key)) return true;
  if (isSchema(schema.patternProperties)) {
    for (const pattern of Object.keys(schema.patternProperties))
      if (new RegExp(pattern, 'u').test(key)) return true;
  }
  return schema.additionalProperties !== false;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const isObjectLike = (schema: Schema): boolean =>
  schema.type === 'object' ||
  isSchema(schema.properties) ||
  isSchema(schema.patternProperties) ||
  [...asArray(schema.anyOf), ...asArray(schema.oneOf), ...asArray(schema.allOf)].some(
    (s) => isSchema(s) && isObjectLike(s),
  );

/** The schemas a property's value must meet, from this schema and its unions and intersections. */
function schemasOf(schema: Schema, key: string): Schema[] {
  const found: Schema[] = [];
  if (isSchema(schema.properties) && isSchema(schema.properties[key])) found.push(schema.properties[key]);
  else if (isSchema(schema.additionalProperties)) found.push(schema.additionalProperties);
  for (const member of [...asArray(schema.anyOf), ...asArray(schema.oneOf), ...asArray(schema.allOf)]) {
    if (isSchema(member)) found.push(...schemasOf(member, key));
  }
  return found;
}

function itemSchemasOf(schema: Schema): Schema[] {
  const found: Schema[] = isSchema(schema.items) ? [schema.items] : [];
  for (const member of [...asArray(schema.anyOf), ...asArray(schema.oneOf), ...asArray(schema.allOf)]) {
    if (isSchema(member)) found.push(...itemSchemasOf(member));
  }
  return found;
}

/**
 * Every field of a body that its closed schema does not know, as issues (Ajv stops at the first;
 * the caller hears of all of them at once). Runs only once validation has failed, over a body the
 * JSON guard has already bounded in depth.
 */
export function unknownFields(schema: unknown, body: unknown): SchemaIssue[] {
  const found = new Map<string, SchemaIssue>();
  const walk = (at: Schema, value: unknown, path: string): void => {
    if (found.size >= MAX_UNKNOWN_FIELDS || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      const items = itemSchemasOf(at);
      value.forEach((item, i) => {
        for (const s of items) walk(s, item, `${path}/${i}`);
      });
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      const instancePath = `${path}/${pointerPart(key)}`;
      if (!knows(at, key)) {
        if (found.size < MAX_UNKNOWN_FIELDS)
          found.set(instancePath, {
            instancePath,
            schemaPath: '',
            keyword: UNKNOWN_FIELD,
            message: 'unknown field',
            params: {},
          });
        continue;
      }
      for (const s of schemasOf(at, key)) walk(s, child, instancePath);
    }
  };
  if (isSchema(schema)) walk(schema, body, '');
  return [...found.values()];
}

/**
 * Characters as JSON Schema's maxLength counts them (code points), so the bound the description
 * states holds for emoji and other text outside the Basic Multilingual Plane as for Latin text:
 * `.length` counts UTF-16 units, two for each of those.
 */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const jsonLength = (value: unknown) =>
  characters(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** How deep objects and arrays nest in a value: 0 for a string, number, boolean or null. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

function bound(keyword: string, measure: (value: unknown) => number, issue: (limit: number) => string) {
  const validate: SchemaValidateFunction = (limit: number, data: unknown) => {
    if (measure(data) <= limit) return true;
    validate.errors = [{ keyword, message: issue(limit), params: { limit } }];
    return false;
  };
  return { keyword, schemaType: 'number', errors: true, validate } satisfies FuncKeywordDefinition;
}

/**
 * Bounds for values whose inner shape is the caller's (metadata): JSON Schema can count keys and
 * measure strings, not the size or depth of an arbitrary value. A string counts its characters,
 * anything else its JSON text.
 */
export const JSON_BOUND_KEYWORDS: FuncKeywordDefinition[] = [
  bound(
    'x-max-json-length',
    jsonLength,
    (limit) => `must be at most ${limit} characters (as JSON unless a string)`,
  ),
  bound('x-max-depth', depthOf, (limit) => `must not nest objects or arrays more than ${limit} levels deep`),
];

/** A body validator over the closed schema whose failure names every unknown field, not only the first. */
export function compileBodyValidator(ajv: Ajv, schema: object) {
  const closed = closeBodySchema(schema);
  const validate = ajv.compile(closed);
  const check = (body: unknown): boolean => {
    if (validate(body)) return true;
    const errors = (validate.errors ?? []) as SchemaIssue[];
    const unknown = unknownFields(closed, body);
    check.errors = unknown.length
      ? [...unknown, ...errors.filter((error) => error.keyword !== 'additionalProperties')]
      : errors;
    return false;
  };
  check.errors = null as SchemaIssue[] | null;
  return check;
}
