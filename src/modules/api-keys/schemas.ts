import { Type } from 'typebox';
import { doc, EnvironmentName, Name, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

export const ApiKey = Type.Object({
  id: doc(Uuid, 'The key id (not the secret).'),
  workspace_id: doc(Uuid, 'The workspace the key acts for.'),
  environment: EnvironmentName,
  name: Type.String({ description: 'Your name for the key.' }),
  party_id: Nullable(Uuid, {
    description: 'The one party a party-scoped key may act for; null for a workspace-level key.',
  }),
  last4: Type.String({ description: 'The last 4 characters of the secret, to tell keys apart.' }),
  created_at: doc(Timestamp, 'When the key was created.'),
  last_used_at: Nullable(Timestamp, {
    description: 'When the key last authenticated a call; null if never.',
  }),
  revoked_at: Nullable(Timestamp, { description: 'When the key was revoked; null while it works.' }),
  revoked_reason: Nullable(Type.String(), {
    description: 'Why: revoked by the owner, or a live key used on a sandbox path.',
  }),
});

export const API_KEY_EXAMPLE = {
  id: '0194f3d0-4f5a-7b6c-8d7e-8f9a0b1c2d3e',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  name: 'billing server',
  party_id: null,
  last4: 'x9Qz',
  created_at: '2026-11-20T12:00:00.000Z',
  last_used_at: '2026-11-26T02:59:41.000Z',
  revoked_at: null,
  revoked_reason: null,
};

export const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  secret: Type.String({ description: 'The full key. Shown once: store it now.' }),
});

export const CreateApiKeyBody = Type.Object(
  {
    name: Name(100, { description: 'Your name for the key, 1 to 100 characters.' }),
    party_id: Type.Optional(
      doc(Uuid, 'Scope the key to this party (a customer of the workspace): it can act only for it.'),
    ),
  },
  { examples: [{ name: 'billing server' }] },
);
