import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, describe, expect, it } from 'vitest';
import { setClock, startServer, tempDir, type Harness } from './test-harness.js';

// Backups through the spawned server: the folder layout, that each part is really readable,
// rotation, and the automatic count-based backup.
const dirs: string[] = [];
const servers: Harness[] = [];

afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open(env: Record<string, string>): Promise<{ dataDir: string; server: Harness }> {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const server = await startServer({ ZERDA_DATA_DIR: dataDir, ...env });
  servers.push(server);
  return { dataDir, server };
}

function backupNames(dataDir: string): string[] {
  const dir = join(dataDir, 'memory_backups');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.startsWith('backup_'))
        .sort()
    : [];
}

describe('create_backup', () => {
  it('writes a SQLite copy, a JSON export and the database files in a timestamped folder', async () => {
    const { dataDir, server } = await open({});
    const ids: string[] = [];
    for (const [title, content] of [
      ['Sister', 'Robin has a sister called Maya'],
      ['Tea', 'Robin prefers green tea in the afternoon'],
    ]) {
      const r = await server.call('remember', { title, content, importance: 6, tags: 'family' });
      ids.push(r.json.memory_id as string);
    }
    const r = await server.call('create_backup');
    expect(r.isError, r.text).toBe(false);
    const backup = r.json.backup as Record<string, unknown>;
    expect(backup.name).toMatch(/^backup_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z/);
    expect(backup.path).toBe(join(dataDir, 'memory_backups', backup.name as string));
    expect(backup.memories).toBe(2);
    const folder = backup.path as string;
    expect(readdirSync(folder).sort()).toEqual(['manifest.json', 'memories.db', 'memories.json', 'memory_db']);

    const SQL = await initSqlJs();
    const db = new SQL.Database(readFileSync(join(folder, 'memories.db')));
    const rows = db.exec('SELECT id, title, importance, tags FROM memories ORDER BY title')[0]!.values;
    expect(rows.map((row) => row[0]).sort()).toEqual([...ids].sort());
    expect(rows.map((row) => row[1])).toEqual(['Sister', 'Tea']);
    expect(rows[0]![2]).toBe(6);
    expect(JSON.parse(rows[0]![3] as string)).toEqual(['family']);
    db.close();

    const json = JSON.parse(readFileSync(join(folder, 'memories.json'), 'utf8'));
    expect(json.format).toBe('zerda-export');
    expect(json.entries.map((e: { id: string }) => e.id).sort()).toEqual([...ids].sort());
    expect(readdirSync(join(folder, 'memory_db')).length).toBeGreaterThan(0);

    const stats = await server.call('get_memory_stats');
    expect((stats.json.last_backup as Record<string, unknown>).name).toBe(backup.name);
  });

  it('a backup of the database files opens as a working database', async () => {
    const { server, dataDir } = await open({});
    await server.call('remember', { title: 'Plant', content: 'The fern on the balcony needs water on Sundays' });
    const backup = (await server.call('create_backup')).json.backup as Record<string, string>;
    // A second server whose data directory is the backup folder: it finds the memory again.
    const restored = await startServer({ ZERDA_DATA_DIR: backup.path! });
    servers.push(restored);
    const r = await restored.call('search_memories', { query: 'fern balcony water', search_type: 'keyword' });
    expect(r.json.results!.map((x) => x.title)).toEqual(['Plant']);
    expect(backup.path!.startsWith(dataDir)).toBe(true);
  });

  it('keeps only the newest 10 backups, even when they share a timestamp', async () => {
    const clockDir = tempDir();
    dirs.push(clockDir);
    const clockFile = join(clockDir, 'clock.txt');
    setClock(clockFile, Date.UTC(2025, 2, 1, 8)); // frozen: every backup gets the same time
    const { dataDir, server } = await open({ ZERDA_CLOCK_FILE: clockFile });
    await server.call('remember', { title: 'One', content: 'Something to back up' });
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await server.call('create_backup');
      expect(r.isError, r.text).toBe(false);
      made.push((r.json.backup as Record<string, string>).name!);
      expect(r.json.backups_kept).toBe(Math.min(i + 1, 10));
    }
    expect(new Set(made).size).toBe(12);
    expect(made[1]).toBe(`${made[0]}_2`);
    expect(backupNames(dataDir)).toEqual(made.slice(2).sort());
  });
});

describe('automatic backups', () => {
  it('backs up after every N new memories (ZERDA_BACKUP_EVERY)', async () => {
    const { dataDir, server } = await open({ ZERDA_BACKUP_EVERY: '5' });
    for (let i = 0; i < 4; i++) await server.call('remember', { title: `M${i}`, content: `memory number ${i}` });
    expect(backupNames(dataDir)).toEqual([]);
    await server.call('remember', { title: 'M4', content: 'memory number 4' });
    const names = backupNames(dataDir);
    expect(names).toHaveLength(1);
    const manifest = JSON.parse(readFileSync(join(dataDir, 'memory_backups', names[0]!, 'manifest.json'), 'utf8'));
    expect(manifest.reason).toBe('count');
    expect(manifest.memories).toBe(5);
    for (let i = 5; i < 9; i++) await server.call('remember', { title: `M${i}`, content: `memory number ${i}` });
    expect(backupNames(dataDir)).toHaveLength(1);
  });

  it('counts new memories across a restart', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const clockFile = join(dataDir, 'clock.txt');
    setClock(clockFile, Date.UTC(2025, 5, 1));
    const env = { ZERDA_DATA_DIR: dataDir, ZERDA_BACKUP_EVERY: '3', ZERDA_CLOCK_FILE: clockFile };
    let server = await startServer(env);
    await server.call('remember', { title: 'A', content: 'first' });
    await server.call('remember', { title: 'B', content: 'second' });
    await server.close();
    setClock(clockFile, Date.UTC(2025, 5, 1, 1));
    server = await startServer(env);
    servers.push(server);
    expect(backupNames(dataDir)).toEqual([]);
    await server.call('remember', { title: 'C', content: 'third' });
    expect(backupNames(dataDir)).toHaveLength(1);
  });
});
