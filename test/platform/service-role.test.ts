/**
 * docs/sql/service-role.sql, the privileges that keep the journals append-only where triggers cannot
 * (Citus). Roles belong to a whole PostgreSQL cluster, so this runs on its own in-memory PGlite in both
 * test modes rather than creating roles on a shared server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { transfer } from '../../src/ledger/ledger.ts';
import { emitEvent } from '../../src/platform/outbox.ts';
import { seedWorkspace } from '../support/world.ts';

const script = readFileSync(path.resolve(import.meta.dirname, '../../docs/sql/service-role.sql'), 'utf8');
const db = await openPglite();
afterAll(() => db.close());

const denied = (sql: string) => expect(db.query(sql)).rejects.toMatchObject({ code: '42501' });

it('the service role writes the journals but never changes or removes a line of them', async () => {
  await migrate(db);
  const { workspaceId, parties } = await seedWorkspace(db);
  // What a Citus cluster has: no append-only triggers, only the privileges.
  await db.exec(`DROP TRIGGER ledger_journals_append_only ON ledger_journals;
                 DROP TRIGGER ledger_postings_append_only ON ledger_postings;`);
  await db.exec(script);
  await db.exec(script);
  await db.exec('SET ROLE lastro_app');

  expect(await migrate(db)).toEqual([]);
  await db.transaction(async (tx) => {
    await transfer(tx, {
      workspaceId,
      environment: 'sandbox',
      referenceType: 'test',
      referenceId: 'grant',
      from: systemAccount.pixSettlement(workspaceId, 'sandbox'),
      to: partyAccount(workspaceId, 'sandbox', parties[0]!, 'BRL'),
      amount: 500n,
    });
    await emitEvent(tx, { workspaceId, environment: 'sandbox', type: 'payment.completed', object: {} });
  });
  await denied('UPDATE ledger_postings SET amount = amount + 1');
  await denied('DELETE FROM ledger_journals');
  await denied('UPDATE events SET type = type');
  await denied('DELETE FROM audit_events');
  await denied('DELETE FROM webhook_delivery_attempts');
  await denied("INSERT INTO schema_migrations (name) VALUES ('9999_x.sql')");
  // Everything else stays writable: balances move, payments change status.
  await db.query('UPDATE payments SET updated_at = updated_at WHERE false');
  const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger_postings');
  expect(rows[0]!.n).toBe('2');
  await db.exec('RESET ROLE');
});
