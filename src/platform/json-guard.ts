import type { FastifyRequest } from 'fastify';
import { type ErrorDetail, invalidRequest } from './errors.ts';

/** How deep a body may nest below its top level (metadata included). */
export const MAX_JSON_DEPTH = 32;

/** With the u flag a well-formed pair is one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What no text column or jsonb value can hold: a lone UTF-16 surrogate and NUL. Refused here,
 * naming the field, rather than by whichever column the database meets them in first.
 */
function flawOf(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (a lone surrogate)';
  return undefined;
}

interface Frame {
  value: object;
  depth: number;
  key: string;
  parent: Frame | undefined;
}

/** The dotted path of a frame's child, built only once something is wrong. */
function fieldOf(frame: Frame | undefined, key?: string): string {
  const keys: string[] = key === undefined ? [] : [key];
  for (let at = frame; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * The first thing in a parsed JSON body that no stored field may hold: a string or key with a lone
 * UTF-16 surrogate (valid JSON, not valid Unicode: PostgreSQL refuses it) or NUL, or nesting past
 * MAX_JSON_DEPTH (deep enough to overflow the stack of recursive code, JSON.stringify among it).
 * Walks with its own stack, so the check itself cannot overflow, and pushes only objects and arrays:
 * a megabyte of numbers costs about what parsing it did.
 */
export function hostileJson(body: unknown): ErrorDetail | undefined {
  if (typeof body === 'string') {
    const flaw = flawOf(body);
    return flaw ? { field: 'body', issue: flaw } : undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const stack: Frame[] = [{ value: body, depth: 0, key: 'body', parent: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth > MAX_JSON_DEPTH) {
      return { field: fieldOf(frame), issue: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
    }
    const children: [string, unknown][] = [];
    if (Array.isArray(frame.value)) {
      const array = frame.value as unknown[];
      for (let i = 0; i < array.length; i++) {
        const child = array[i];
        const flaw = typeof child === 'string' ? flawOf(child) : undefined;
        if (flaw) return { field: fieldOf(frame, String(i)), issue: flaw };
        if (typeof child === 'object' && child !== null) children.push([String(i), child]);
      }
    } else {
      for (const key in frame.value) {
        const keyFlaw = flawOf(key);
        if (keyFlaw) return { field: fieldOf(frame), issue: `keys ${keyFlaw}` };
        const child = (frame.value as Record<string, unknown>)[key];
        const flaw = typeof child === 'string' ? flawOf(child) : undefined;
        if (flaw) return { field: fieldOf(frame, key), issue: flaw };
        if (typeof child === 'object' && child !== null) children.push([key, child]);
      }
    }
    // Nested objects are pushed last first, so they are walked in document order.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i]!;
      stack.push({ value: child as object, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return undefined;
}

/** preValidation hook: every route's body is checked once, before its schema and handler see it. */
export function refuseHostileJson(request: FastifyRequest): void {
  if (request.body === undefined || request.body === null) return;
  const detail = hostileJson(request.body);
  if (detail) throw invalidRequest(`Invalid body: ${detail.field} ${detail.issue}.`, [detail]);
}
