import type { FastifyRequest } from 'fastify';
import { type ErrorDetail, invalidRequest } from './errors.ts';

/** How deep a body may nest below its top level (metadata included). */
export const MAX_JSON_DEPTH = 32;

/** With the u flag a well-formed pair is one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first thing in a parsed JSON body that no stored field may hold: a string or key with a lone
 * UTF-16 surrogate (valid JSON, not valid Unicode: PostgreSQL refuses it), or nesting past
 * MAX_JSON_DEPTH (deep enough to overflow the stack of recursive code, JSON.stringify among it).
 * Walks with its own stack, so the check itself cannot overflow.
 */
export function hostileJson(body: unknown): ErrorDetail | undefined {
  const stack: { value: unknown; field: string; depth: number }[] = [
    { value: body, field: 'body', depth: 0 },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, field, depth } = item;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return { field, issue: 'must be valid Unicode (a lone surrogate)' };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) return { field, issue: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    // Pushed last first, so fields are checked (and the first bad one named) in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (LONE_SURROGATE.test(key)) return { field, issue: 'keys must be valid Unicode (a lone surrogate)' };
      stack.push({ value: child, field: `${field}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/** preValidation hook: every route's body is checked once, before its schema and handler see it. */
export async function refuseHostileJson(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) return;
  const detail = hostileJson(request.body);
  if (detail) throw invalidRequest(`Invalid body: ${detail.field} ${detail.issue}.`, [detail]);
}
