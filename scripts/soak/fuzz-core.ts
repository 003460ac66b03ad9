/**
 * The schema-driven fuzzer (issue 18, item 4): requests generated with fast-check from the service's
 * own OpenAPI document, for every operation: valid-shaped bodies, queries and path values, then the
 * same with a field of the wrong type, a boundary amount, unicode, a huge string, deep nesting or a
 * missing field; real credentials or broken ones; hostile headers. Each answer is judged: never a
 * 5xx other than a documented 503, never a stack trace or SQL in a body, every 4xx a documented code
 * with its status. Shared by `npm run soak -- --fuzz` (over HTTP) and test/fuzz (in process).
 */
import fc from 'fast-check';
import { ERROR_STATUS } from '../../src/platform/errors.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects of the OpenAPI document
type Schema = any;

export interface FuzzTarget {
  method: string;
  /** OpenAPI form: /v1/{env}/payments/{id}. */
  path: string;
  params: { name: string; in: 'path' | 'query' | 'header'; schema: Schema; required: boolean }[];
  body?: Schema;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Raw text sent as the body (JSON or not). */
  body?: string;
  target: string;
}

export interface Credentials {
  workspaceId: string;
  apiKey: string;
  session: string;
  partyKey: string;
}

/** Every operation of the document (the hosted HTML pages and the docs UI aside). */
export function targetsOf(doc: Schema): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => ({
        name: p.name,
        in: p.in,
        schema: p.schema ?? {},
        required: Boolean(p.required),
      }));
      targets.push({
        method: method.toUpperCase(),
        path,
        params,
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return targets;
}

const HUGE = 'x'.repeat(300_000);
const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });
/** Amounts at the edges: zero, negative, signs, exponents, BIGINT's limit and past it, 16 digits and 17. */
const BOUNDARY_AMOUNTS = [
  '0',
  '-1',
  '1',
  '00',
  '01',
  '+1',
  '1e3',
  '1.5',
  ' 1',
  '1 ',
  '',
  '9999999999999999',
  '10000000000000000',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '99999999999999999999999999',
  '0x10',
  '١٢٣',
];
const hostile = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      '',
      ' ',
      'null',
      'NaN',
      '\u0000',
      '\ud800',
      '../../etc/passwd',
      "' OR 1=1 --",
      '"; DROP TABLE payments; --',
      '<script>x</script>',
      '%00',
      '%',
      '🙂'.repeat(100),
      'é'.repeat(5000),
      HUGE,
      [],
      {},
      [[[[]]]],
      deep(40),
      deep(20),
    ),
    fc.constantFrom(...BOUNDARY_AMOUNTS),
    fc.string({ unit: 'grapheme', maxLength: 80 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  );

const amount = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 9n }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom(...BOUNDARY_AMOUNTS) },
  );

/** A value the schema accepts (mostly: formats are followed, patterns only for amounts). */
export function validOf(schema: Schema, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s: Schema) => validOf(s, name, depth + 1)));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type: string) => validOf({ ...schema, type }, name, depth + 1)));
  switch (schema.type) {
    case 'string':
      if (/_minor$|^amount/.test(name)) return amount();
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uri') return fc.webUrl();
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 60) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validOf(schema.items, name, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      if (Object.keys(properties).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, s]) => [key, validOf(s, key, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A valid value, or one broken in one of the ways a client breaks things. */
function bodyOf(schema: Schema): fc.Arbitrary<unknown> {
  const valid = validOf(schema);
  const properties = Object.keys(schema?.properties ?? {});
  const mutated = fc.tuple(valid, fc.nat(), hostile(), fc.nat(3)).map(([value, pick, bad, how]) => {
    if (!value || typeof value !== 'object' || Array.isArray(value) || properties.length === 0) return bad;
    const copy: Record<string, unknown> = { ...(value as object) };
    const key = properties[pick % properties.length]!;
    if (how === 0) delete copy[key];
    else if (how === 1) copy[`unknown_${pick % 7}`] = bad;
    else copy[key] = bad;
    return copy;
  });
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: hostile() },
  );
}

/** As text a URL can carry: a lone surrogate (no UTF-8 for it) becomes U+FFFD, as a browser sends it. */
const text = (value: unknown) =>
  (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(LONE_SURROGATE, '\ufffd');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Header values a client can send at all (Latin-1, no line breaks). */
const headerSafe = (value: string) => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').slice(0, 8000);

export function requestOf(target: FuzzTarget, creds: Credentials): fc.Arbitrary<FuzzRequest> {
  const pathValue = (schema: Schema) =>
    fc.oneof(
      { weight: 3, arbitrary: validOf(schema).map(text) },
      { weight: 1, arbitrary: hostile().map(text) },
    );
  const params = target.params.filter((p) => p.in !== 'header');
  const credential = fc.constantFrom<[string | undefined, string | undefined]>(
    [creds.apiKey, creds.workspaceId],
    [creds.apiKey, creds.workspaceId],
    [creds.session, creds.workspaceId],
    [creds.partyKey, creds.workspaceId],
    [undefined, undefined],
    ['lastro_test_sk_nothing', creds.workspaceId],
    [creds.apiKey, '00000000-0000-0000-0000-000000000000'],
  );
  return fc
    .record({
      values: fc.tuple(...params.map((p) => fc.option(pathValue(p.schema), { freq: p.required ? 20 : 2 }))),
      env: fc.constantFrom('sandbox', 'sandbox', 'sandbox', 'live', 'test', 'nope'),
      credential,
      body: target.body ? bodyOf(target.body) : fc.constant(undefined),
      raw: fc.constantFrom<string | undefined>(
        undefined,
        undefined,
        undefined,
        undefined,
        '{"a":',
        'not json',
        '[]',
        '""',
      ),
      idempotencyKey: fc.option(
        fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant('k'.repeat(1000))),
        { freq: 2 },
      ),
      subaccount: fc.option(fc.oneof(fc.uuid(), fc.string({ maxLength: 50 })), { freq: 8 }),
      requestId: fc.option(fc.string({ maxLength: 200 }), { freq: 4 }),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
      ),
    })
    .map(({ values, env, credential, body, raw, idempotencyKey, subaccount, requestId, contentType }) => {
      let url = target.path.replace('{env}', env);
      const query: string[] = [];
      params.forEach((param, i) => {
        const value = values[i];
        if (param.name === 'env' || value === null || value === undefined) return;
        if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(value) || 'x');
        else query.push(`${encodeURIComponent(param.name)}=${encodeURIComponent(value)}`);
      });
      url = url.replace(/\{[^}]+\}/g, 'missing');
      if (query.length) url += `?${query.join('&')}`;
      const headers: Record<string, string> = {};
      const [token, workspace] = credential;
      if (token) headers.authorization = `Bearer ${token}`;
      if (workspace) headers['x-workspace-id'] = workspace;
      if (idempotencyKey !== null) headers['idempotency-key'] = headerSafe(idempotencyKey) || 'k';
      if (subaccount !== null) headers['x-subaccount-id'] = headerSafe(subaccount) || 'x';
      if (requestId !== null) headers['x-request-id'] = headerSafe(requestId) || 'r';
      const sendsBody = ['POST', 'PUT', 'PATCH'].includes(target.method);
      if (sendsBody) headers['content-type'] = contentType;
      // Logging out would end the session the other requests use: it is tried with the API key only.
      if (target.path === '/v1/auth/logout' && token === creds.session)
        headers.authorization = `Bearer ${creds.apiKey}`;
      const payload = sendsBody ? (raw ?? JSON.stringify(body === undefined ? {} : body)) : undefined;
      return {
        method: target.method,
        url,
        headers,
        body: payload,
        target: `${target.method} ${target.path}`,
      };
    });
}

const LEAKS = [
  /\bat [\w.<>$]+ \(.*:\d+:\d+\)/,
  /node_modules|\/src\/\w+\/[\w-]+\.ts/,
  /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/,
  /syntax error at or near|violates (foreign key|check|unique|not-null) constraint|relation "\w+"|column "\w+"|SQLSTATE/i,
];

/** What is wrong with an answer, or undefined when it keeps the error contract. */
export function judge(status: number, contentType: string, text: string): string | undefined {
  for (const leak of LEAKS)
    if (leak.test(text)) return `${status} leaks internals (${leak}): ${text.slice(0, 200)}`;
  if (status < 400) return undefined;
  if (!contentType.includes('json')) return status >= 500 ? `${status} ${text.slice(0, 200)}` : undefined;
  let code: unknown;
  try {
    code = JSON.parse(text)?.error;
  } catch {
    return `${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (typeof code !== 'string' || !(code in ERROR_STATUS))
    return `${status} with an undocumented code ${String(code)}`;
  const documented = ERROR_STATUS[code as keyof typeof ERROR_STATUS];
  if (documented !== status) return `${status} with code ${code}, documented as ${documented}`;
  if (status >= 500 && status !== 503) return `${status} ${code}`;
  return undefined;
}
