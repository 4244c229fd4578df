import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { applyVec } from './sql-apply.js';
import { attachVectors } from './schema.js';

const rowsOf = (n: number, dim: number) => new Uint8Array(new Float32Array(n * dim).fill(0.5).buffer);
const dims = (db: import('sql.js').Database, t: string, m: string) =>
  db.exec('SELECT dim, count(*) FROM vec.vectors WHERE tenant_id = ? AND model_id = ? GROUP BY dim', [t, m])[0]
    ?.values ?? [];

describe('applyVec', () => {
  it('a vput of another dim replaces the model’s rows of the old dim (one dim per tenant and model), and leaves other models and tenants', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    attachVectors(db);
    applyVec(db, { o: 'vput', t: 'a', m: 'm', d: 4, ids: ['1', '2', '3'] }, rowsOf(3, 4));
    applyVec(db, { o: 'vput', t: 'a', m: 'other', d: 4, ids: ['1'] }, rowsOf(1, 4));
    applyVec(db, { o: 'vput', t: 'b', m: 'm', d: 4, ids: ['1'] }, rowsOf(1, 4));
    // The same dim adds rows and keeps the others.
    applyVec(db, { o: 'vput', t: 'a', m: 'm', d: 4, ids: ['4'] }, rowsOf(1, 4));
    expect(dims(db, 'a', 'm')).toEqual([[4, 4]]);
    // A record of a new dim (the store checks dims before writing; a replayed log is not checked).
    applyVec(db, { o: 'vput', t: 'a', m: 'm', d: 8, ids: ['5'] }, rowsOf(1, 8));
    expect(dims(db, 'a', 'm')).toEqual([[8, 1]]);
    expect(dims(db, 'a', 'other')).toEqual([[4, 1]]);
    expect(dims(db, 'b', 'm')).toEqual([[4, 1]]);
    db.close();
  });
});
