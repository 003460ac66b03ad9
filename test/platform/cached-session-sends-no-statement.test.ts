/**
 * A dashboard session and its membership of the workspace are looked up once per process: the
 * requests that follow are served from the credential cache and send no statement for them.
 */
import { expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { sessionStatements, untilCached } from '../support/session-statements.ts';
import { client, signupOwner } from '../support/world.ts';

it('a second request with the same session sends no session or membership statement', async () => {
  const ctx = await startTestApp();
  try {
    const owner = await signupOwner(ctx.app);
    const dashboard = client(ctx.app, owner.sessionToken, owner.workspaceId);
    const balances = async () => expect((await dashboard.get('/v1/sandbox/balances')).statusCode).toBe(200);
    // The first lookup reads both; on PostgreSQL the cache starts keeping them once its LISTEN is up.
    expect(await sessionStatements(ctx.db, balances)).toBe(2);
    expect(await untilCached(ctx.db, balances)).toBe(true);
    expect(await sessionStatements(ctx.db, balances)).toBe(0);
  } finally {
    await ctx.close();
  }
});

it('an unknown session token is looked up on every request, never kept', async () => {
  const ctx = await startTestApp();
  try {
    const owner = await signupOwner(ctx.app);
    const stranger = client(ctx.app, `${owner.sessionToken.slice(0, -4)}XXXX`, owner.workspaceId);
    const refused = async () => expect((await stranger.get('/v1/sandbox/balances')).statusCode).toBe(401);
    for (let i = 0; i < 3; i++) expect(await sessionStatements(ctx.db, refused)).toBe(1);
  } finally {
    await ctx.close();
  }
});
