import { describe, expect, it } from 'vitest';
import type { Database, ListenEvent } from '../../db/types.ts';
import { cachedCredential } from './credential-cache.ts';

/** A database whose LISTEN the test drives by hand. */
function listeningDb() {
  let emit: (event: ListenEvent) => void = () => {};
  const db = {
    listen: (_channel: string, onEvent: (event: ListenEvent) => void) => {
      emit = onEvent;
    },
  } as unknown as Database;
  return { db, emit: (event: ListenEvent) => emit(event) };
}

function counter(row: { id: string } | undefined) {
  let loads = 0;
  return {
    load: async () => {
      loads++;
      return row;
    },
    loads: () => loads,
  };
}

describe('credential cache', () => {
  it('caches nothing until its LISTEN is in place, then a key is looked up once', async () => {
    const { db, emit } = listeningDb();
    const key = counter({ id: 'k' });
    await cachedCredential(db, 'h', key.load);
    await cachedCredential(db, 'h', key.load);
    expect(key.loads()).toBe(2);
    emit('ready');
    await cachedCredential(db, 'h', key.load);
    await cachedCredential(db, 'h', key.load);
    expect(key.loads()).toBe(3);
  });

  it('a notification forgets every key; a lost listener stops caching until it is back', async () => {
    const { db, emit } = listeningDb();
    emit('ready');
    const key = counter({ id: 'k' });
    await cachedCredential(db, 'h', key.load);
    emit('message');
    await cachedCredential(db, 'h', key.load);
    expect(key.loads()).toBe(2);
    emit('lost');
    await cachedCredential(db, 'h', key.load);
    await cachedCredential(db, 'h', key.load);
    expect(key.loads()).toBe(4);
    emit('ready');
    await cachedCredential(db, 'h', key.load);
    await cachedCredential(db, 'h', key.load);
    expect(key.loads()).toBe(5);
  });

  it('a lookup that read the key before a change does not keep what it read', async () => {
    const { db, emit } = listeningDb();
    emit('ready');
    let release: () => void = () => {};
    const slow = cachedCredential(db, 'h', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { id: 'before the change' };
    });
    emit('message');
    release();
    expect(await slow).toEqual({ id: 'before the change' });
    const after = counter({ id: 'after' });
    expect(await cachedCredential(db, 'h', after.load)).toEqual({ id: 'after' });
    expect(after.loads()).toBe(1);
  });

  it('an unknown key is never cached', async () => {
    const { db, emit } = listeningDb();
    emit('ready');
    const unknown = counter(undefined);
    await cachedCredential(db, 'h', unknown.load);
    await cachedCredential(db, 'h', unknown.load);
    expect(unknown.loads()).toBe(2);
  });
});
