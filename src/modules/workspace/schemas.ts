import { Type } from 'typebox';
import { iso, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';
import type { WorkspaceRow } from './repo.ts';

export const Workspace = Type.Object({
  id: Uuid,
  parent_workspace_id: Nullable(Uuid),
  display_name: Type.String(),
  production_enabled: Type.Boolean(),
  default_party_id: Uuid,
  status: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const workspaceView = (row: WorkspaceRow) => ({
  id: row.id,
  parent_workspace_id: row.parent_workspace_id,
  display_name: row.display_name,
  production_enabled: row.production_enabled,
  default_party_id: row.default_party_id,
  status: row.status,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});
