import { type Static, Type } from 'typebox';
import { Metadata, MetadataBody, Name, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

/** The spec's Sub-account resource (a child workspace). */
export const Subaccount = Type.Object({
  id: Uuid,
  parent_workspace_id: Uuid,
  display_name: Type.String(),
  legal_name: Nullable(Type.String()),
  country: Nullable(Type.String()),
  created_at: Timestamp,
  status: Type.String({ description: 'active' }),
  party_id: Uuid,
  settings: Metadata,
});
export type SubaccountView = Static<typeof Subaccount>;

export const SubaccountCreateBody = Type.Object({
  display_name: Name(120),
  legal_name: Type.Optional(Name(200)),
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
  settings: Type.Optional(MetadataBody),
});
export type SubaccountCreateInput = Static<typeof SubaccountCreateBody>;
