import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { compileBodyValidator, JSON_BOUND_KEYWORDS } from '../body-schema.ts';
import type { App } from '../schema.ts';

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    allErrors: false,
    strict: false,
    removeAdditional: false,
  });
  addFormats.default(ajv);
  for (const keyword of JSON_BOUND_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/**
 * Bodies are validated strictly (a number is not a string); query strings and params are text, so
 * they coerce. A body refuses fields its schema does not list (closed here, once, for every route).
 */
export function validators(app: App): void {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileBodyValidator(bodyAjv, schema) : textAjv.compile(schema as object),
  );
}
