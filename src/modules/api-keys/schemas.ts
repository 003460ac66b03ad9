import { Type } from 'typebox';
import { EnvironmentName, Name, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

export const ApiKey = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  environment: EnvironmentName,
  name: Type.String(),
  party_id: Nullable(Uuid),
  last4: Type.String(),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  revoked_at: Nullable(Timestamp),
  revoked_reason: Nullable(Type.String()),
});

export const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  secret: Type.String({ description: 'The full key. Shown once: store it now.' }),
});

export const CreateApiKeyBody = Type.Object({
  name: Name(100),
  party_id: Type.Optional(Uuid),
});
