/** pg's own conversion of a parameter to its wire text (pg/lib/utils.js; untyped in @types/pg). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
