import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { codeForSqlState, isConnectionLoss, isRemoteLoss, pgError } from './errors.js';
import { PostgresStorage } from './postgres-storage.js';
import { SCHEMA_VERSION } from './schema.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

/** An error as the server sends it (pg.DatabaseError carries the SQLSTATE in `code`). */
function dbError(message: string, code: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
}

describe('SQLSTATE → Zerda error codes', () => {
  it.each([
    ['40001', 'CONFLICT'],
    ['40P01', 'CONFLICT'],
    ['23505', 'CONFLICT'],
    ['53100', 'QUOTA_EXCEEDED'],
    ['53300', 'QUOTA_EXCEEDED'],
    ['54000', 'QUOTA_EXCEEDED'],
    ['42501', 'ACCESS_DENIED'],
    ['22P05', 'VALIDATION'],
    ['08006', 'STORAGE'],
    ['XX000', 'STORAGE'],
    [undefined, 'STORAGE'],
  ])('%s → %s', (state, code) => {
    expect(codeForSqlState(state)).toBe(code);
  });

  it('wraps driver errors with the SQLSTATE in details; socket errors are STORAGE', () => {
    const e = pgError('write', dbError('could not serialize access', '40001'));
    expect(isZerdaError(e, 'CONFLICT')).toBe(true);
    expect(e.details).toEqual({ sqlState: '40001' });
    expect(e.message).toMatch(/retried/);
    expect(
      isZerdaError(pgError('connect', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })), 'STORAGE'),
    ).toBe(true);
  });

  it('Node socket codes are not SQLSTATEs: EPIPE is STORAGE with no details.sqlState', () => {
    const e = pgError('write', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(isZerdaError(e, 'STORAGE')).toBe(true);
    expect(e.details?.sqlState).toBeUndefined();
    expect(e.message).not.toMatch(/SQLSTATE/);
    expect(e.message).toMatch(/\[EPIPE\]/);
    // A five-letter code that looks like a SQLSTATE but did not come from the server is not one.
    expect(pgError('read', Object.assign(new Error('x'), { code: '40001' })).code).toBe('STORAGE');
  });

  it('connection losses are recognised (server kill, restart, socket errors), other errors are not', () => {
    expect(isConnectionLoss(dbError('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isConnectionLoss(dbError('the database system is starting up', '57P03'))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss(dbError('duplicate key', '23505'))).toBe(false);
    expect(isConnectionLoss(dbError('internal error', 'XX000'))).toBe(false);
  });

  it('a Citus coordinator losing a worker is a connection loss that wrote nothing, in each form seen', () => {
    // As a worker crashed under a burst of writes (connection-loss.test.ts on the cluster).
    const remote = [
      dbError(
        'connection to the remote node zerda_app@127.0.0.1:55445 failed with the following error: Connection refused',
        '08006',
      ),
      dbError('SSL SYSCALL error: EOF detected', 'XX000'),
      dbError('server closed the connection unexpectedly', 'XX000'),
      dbError('failed to COPY to shard 102013 on 127.0.0.1:55445', '58030'),
    ];
    for (const e of remote) {
      expect(isConnectionLoss(e), e.message).toBe(true);
      expect(isRemoteLoss(e), e.message).toBe(true);
    }
    // The app's own connection lost (its outcome during COMMIT is unknown), or other errors.
    expect(isRemoteLoss(dbError('terminating connection due to administrator command', '57P01'))).toBe(false);
    expect(isRemoteLoss(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(false);
    expect(isRemoteLoss(dbError('could not write to file', '58030'))).toBe(false);
    expect(isConnectionLoss(dbError('could not write to file', '58030'))).toBe(false);
  });
});

describePostgres('PostgresStorage errors and migrations on a real server', (url) => {
  const schema = freshSchema('err');
  let storage: PostgresStorage;
  beforeAll(async () => {
    storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('a value PostgreSQL cannot hold (U+0000 in an id) is VALIDATION and writes nothing', async () => {
    const good = createEntry('t-nul', { content: { title: 'ok', text: 'fine' } }, 1_700_000_000_000);
    const bad = { ...good, id: 'a\u0000b' };
    const err = await storage.putMany([good, bad]).catch((e: unknown) => e);
    expect(isZerdaError(err, 'VALIDATION')).toBe(true);
    expect(await storage.count({ tenantId: 't-nul' })).toBe(0);
    // U+0000 inside content is kept (JSON escapes it) and does not break search.
    const odd = { ...good, content: { title: 'zero', text: 'kestrel\u0000osprey' } };
    await storage.put(odd);
    expect(await storage.get('t-nul', good.id)).toEqual(odd);
    expect((await storage.lexicalSearch({ tenantId: 't-nul', query: 'osprey', limit: 5 })).map((h) => h.id)).toEqual([
      good.id,
    ]);
  });

  it('an unreachable server is STORAGE, naming what failed', async () => {
    const err = await PostgresStorage.open({
      connectionString: 'postgresql://zerda_app@localhost/zerda_test?host=/nonexistent&port=1',
    }).catch((e: unknown) => e);
    expect(isZerdaError(err, 'STORAGE')).toBe(true);
    expect((err as Error).message).toMatch(/connect/);
  });

  it('reopening migrates nothing; a schema newer than the code is refused with STORAGE', async () => {
    const again = await PostgresStorage.open({ connectionString: url, schema });
    await again.close();
    await again.close(); // idempotent
    const client = new pg.Client({ connectionString: ownerUrl(url) });
    await client.connect();
    try {
      const before = await client.query(`SELECT version FROM "${schema}".migrations ORDER BY version`);
      expect(before.rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
      await client.query(`INSERT INTO "${schema}".migrations (version) VALUES ($1)`, [SCHEMA_VERSION + 1]);
      const err = await PostgresStorage.open({ connectionString: url, schema }).catch((e: unknown) => e);
      expect(isZerdaError(err, 'STORAGE')).toBe(true);
      expect((err as Error).message).toMatch(/newer than this @zerda\/postgres/);
    } finally {
      await client.query(`DELETE FROM "${schema}".migrations WHERE version > $1`, [SCHEMA_VERSION]);
      await client.end();
    }
  });

  it('rejects bad options before connecting', async () => {
    await expect(PostgresStorage.open({ connectionString: url, schema: 'Bad-Name' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(PostgresStorage.open({ connectionString: url, shema: 'x' } as never)).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(PostgresStorage.open({} as never)).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
