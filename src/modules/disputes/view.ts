import { iso } from '../../platform/schema.ts';
import type { DisputeRow } from './repo.ts';
import type { DisputeView } from './schemas.ts';

/** A dispute as the API answers it and as its events carry it. */
export function disputeView(row: DisputeRow): DisputeView {
  return {
    id: row.id,
    environment: row.environment,
    payment_id: row.payment_id,
    party_id: row.party_id,
    status: row.status,
    reason: row.reason,
    infraction_id: row.infraction_id,
    amount_minor: String(row.amount_minor),
    currency: 'BRL',
    held_minor: String(row.held_minor),
    unheld_minor: String(row.amount_minor - row.held_minor),
    opened_at: iso(row.opened_at),
    deadline_at: iso(row.deadline_at),
    defense:
      row.defense_text === null || row.defended_at === null
        ? null
        : {
            text: row.defense_text,
            evidence: row.defense_evidence ?? [],
            submitted_at: iso(row.defended_at),
          },
    closed_at: iso(row.closed_at),
    return_payment_id: row.return_payment_id,
    deadline_notices_sent: row.notices_sent,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
