import { Type } from 'typebox';
import { doc, iso, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';
import type { WorkspaceRow } from './repo.ts';

export const Workspace = Type.Object({
  id: doc(Uuid, 'The workspace id: send it as X-Workspace-Id.'),
  parent_workspace_id: Nullable(Uuid, {
    description: 'The parent workspace of a sub-account; null on a top workspace.',
  }),
  display_name: Type.String({ description: 'The name shown in the dashboard and to payers.' }),
  production_enabled: Type.Boolean({ description: 'Whether live keys and /v1/live calls are allowed.' }),
  default_party_id: doc(Uuid, "The workspace's own party: whose balance moves when a call names no party."),
  status: Type.String({ description: 'active, or blocked by an operator.' }),
  created_at: doc(Timestamp, 'When the workspace was created.'),
  updated_at: doc(Timestamp, 'When the workspace last changed.'),
});

export const WORKSPACE_EXAMPLE = {
  id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  parent_workspace_id: null,
  display_name: 'Acme Pagamentos',
  production_enabled: true,
  default_party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
  status: 'active',
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-20T09:30:00.000Z',
};

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
