import type { Queryable, Tx } from '../../db/types.ts';
import { actorOf, recordAudit } from '../../platform/audit.ts';
import type { Caller, Environment } from '../../platform/context.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import { iso } from '../../platform/schema.ts';
import { type PixKeyType, parseDocument, parsePixKey } from './keys.ts';

export interface SettlementKeyRow {
  workspace_id: string;
  environment: Environment;
  pix_key: string;
  pix_key_type: PixKeyType;
  holder_name: string;
  holder_document: string;
  created_at: Date;
  updated_at: Date;
}

export const settlementKeyView = (row: SettlementKeyRow) => ({
  workspace_id: row.workspace_id,
  environment: row.environment,
  pix_key: row.pix_key,
  pix_key_type: row.pix_key_type,
  holder_name: row.holder_name,
  holder_document: row.holder_document,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function findSettlementKey(q: Queryable, workspaceId: string, environment: string) {
  const { rows } = await q.query<SettlementKeyRow>(
    'SELECT * FROM settlement_keys WHERE workspace_id = $1 AND environment = $2',
    [workspaceId, environment],
  );
  return rows[0];
}

export interface SettlementKeyInput {
  pix_key: string;
  pix_key_type?: PixKeyType;
  holder_name: string;
  holder_document: string;
}

export async function putSettlementKey(tx: Tx, caller: Caller, input: SettlementKeyInput, ip: string) {
  const key = parsePixKey(input.pix_key, input.pix_key_type);
  if (!key)
    throw new AppError('invalid_pix_key', 'pix_key is not a valid CPF, CNPJ, e-mail, +55 phone or EVP key.');
  const document = parseDocument(input.holder_document);
  if (!document) {
    throw invalidRequest('holder_document must be a valid CPF or CNPJ.', [
      { field: 'body.holder_document', issue: 'not a valid CPF or CNPJ' },
    ]);
  }
  const { rows } = await tx.query<SettlementKeyRow>(
    `INSERT INTO settlement_keys (workspace_id, environment, pix_key, pix_key_type, holder_name, holder_document)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (workspace_id, environment) DO UPDATE
       SET pix_key = EXCLUDED.pix_key, pix_key_type = EXCLUDED.pix_key_type, holder_name = EXCLUDED.holder_name,
           holder_document = EXCLUDED.holder_document, updated_at = now()
     RETURNING *`,
    [caller.workspaceId, caller.environment, key.value, key.type, input.holder_name.trim(), document.value],
  );
  await recordAudit(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    ...actorOf(caller),
    action: 'settlement_key.set',
    targetType: 'settlement_key',
    ip,
    metadata: { pix_key_type: key.type },
  });
  return settlementKeyView(rows[0]!);
}

export async function deleteSettlementKey(tx: Tx, caller: Caller, ip: string) {
  const { rows } = await tx.query<SettlementKeyRow>(
    'DELETE FROM settlement_keys WHERE workspace_id = $1 AND environment = $2 RETURNING *',
    [caller.workspaceId, caller.environment],
  );
  if (!rows[0]) throw notFound('Settlement key');
  await recordAudit(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    ...actorOf(caller),
    action: 'settlement_key.deleted',
    targetType: 'settlement_key',
    ip,
  });
  return settlementKeyView(rows[0]);
}
