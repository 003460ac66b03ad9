import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';

/**
 * A party-scoped key names no party but its own, on any route (API.md "Callers"): a `party_id` in the
 * body or the query that is not its party is 403 before validation, so every route present and future
 * follows the rule. Services still narrow their reads to the key's party (another party's record → 404).
 */
export function checkPartyScope(request: FastifyRequest): void {
  const own = request.caller?.partyId;
  if (!own) return;
  for (const source of [request.body, request.query]) {
    if (typeof source !== 'object' || source === null || Array.isArray(source)) continue;
    const named = (source as { party_id?: unknown }).party_id;
    if (named === undefined) continue;
    if (typeof named !== 'string' || named.toLowerCase() !== own.toLowerCase()) {
      throw forbidden('This key is scoped to another party.');
    }
  }
}
