import { type Static, Type } from 'typebox';
import { doc, Metadata, MetadataBody, Name, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

/** The spec's Sub-account resource (a child workspace). */
export const Subaccount = Type.Object({
  id: doc(Uuid, 'The sub-account id: send it as X-Subaccount-Id to act on it.'),
  parent_workspace_id: doc(Uuid, 'Your workspace, its parent.'),
  display_name: Type.String({ description: 'Its name.' }),
  legal_name: Nullable(Type.String(), { description: 'Its registered legal name, when given.' }),
  country: Nullable(Type.String(), { description: 'Its country, ISO 3166-1 alpha-2, when given.' }),
  created_at: doc(Timestamp, 'When it was created.'),
  status: Type.String({ description: 'active' }),
  party_id: doc(Uuid, 'Its own party: whose balance its payments move.'),
  settings: doc(Metadata, 'Your own key-value settings of the sub-account.'),
});

export const SUBACCOUNT_EXAMPLE = {
  id: '0194f3c0-3e4f-7a5b-8c6d-7e8f9a0b1c2d',
  parent_workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  display_name: 'Loja Centro',
  legal_name: 'Loja Centro Comercio Ltda',
  country: 'BR',
  created_at: '2026-11-21T10:00:00.000Z',
  status: 'active',
  party_id: '0194f3c0-3e4f-7a5b-8c6d-7e8f9a0b1c2e',
  settings: { region: 'sul' },
};
export type SubaccountView = Static<typeof Subaccount>;

export const SubaccountCreateBody = Type.Object(
  {
    display_name: Name(120, { description: 'Its name, 1 to 120 characters.' }),
    legal_name: Type.Optional(Name(200, { description: 'Its registered legal name.' })),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
    settings: Type.Optional(MetadataBody),
  },
  {
    examples: [
      {
        display_name: 'Loja Centro',
        legal_name: 'Loja Centro Comercio Ltda',
        country: 'BR',
        settings: { region: 'sul' },
      },
    ],
  },
);
export type SubaccountCreateInput = Static<typeof SubaccountCreateBody>;
