import { ZerdaError, buildExport, validateExport } from '@zerda/core';
import { BackupSchedule, ENTRY_COLUMNS, decodeVectorRowsInto, invalid } from '@zerda/core/adapter';
import type { Cipher, Clock, ExportContent, UserProfile, ValidatedExport, ZerdaExport } from '@zerda/core';
import type { AutoBackupOptions, ExportOptions, ImportReport } from './options.js';
import { guard } from './persistence.js';
import type { BackupInfo, Persistence } from './persistence.js';
import { decodeRecord, encodeRecord, openFailure } from './record-codec.js';
import { makeMeta } from './meta.js';
import { rowToEntry } from './sql-apply.js';
import type { MainOp, VecWrite } from './sql-apply.js';
import type { Store } from './store.js';
import { checkDim } from './vectors.js';

// Export, import, backups and re-encryption: everything that moves the whole database in or out.

/** What these operations need from the storage. */
export interface TransferContext {
  store: Store;
  clock: Clock;
  /** Load vectors (reporting a repaired vector store). */
  ensureVectors(): Promise<void>;
  /** Persist and apply records, then run maintenance; resolves to entries added. */
  commit(main: MainOp | undefined, vec: VecWrite[]): Promise<number>;
}

/** The export document of the database (inside `serial`). */
export async function exportDoc(ctx: TransferContext, options: ExportOptions): Promise<ZerdaExport> {
  const store = ctx.store;
  const where = options.tenantId === undefined ? '' : 'WHERE tenant_id = ?';
  const params = options.tenantId === undefined ? [] : [options.tenantId];
  const content: ExportContent = {
    exportedAt: ctx.clock(),
    ...(options.tenantId === undefined ? {} : { tenants: [options.tenantId] }),
    entries: store
      .rows(`SELECT ${ENTRY_COLUMNS} FROM entries e ${where} ORDER BY e.tenant_id, e.id`, params)
      .map(rowToEntry),
    profiles: store
      .rows(`SELECT data FROM profiles ${where} ORDER BY tenant_id, user_id`, params)
      .map((r) => JSON.parse(r[0] as string) as UserProfile),
  };
  if (options.includeVectors) {
    await ctx.ensureVectors();
    content.vectors = [];
    for (const [t, m, d] of store.rows(
      `SELECT DISTINCT tenant_id, model_id, dim FROM vec.vectors ${where} ORDER BY 1, 2`,
      params,
    )) {
      const rows = store.rows('SELECT id, data FROM vec.vectors WHERE tenant_id = ? AND model_id = ? ORDER BY id', [
        t,
        m,
      ]);
      const dim = Number(d);
      const data = new Float32Array(rows.length * dim);
      rows.forEach((r, i) => decodeVectorRowsInto(r[1] as Uint8Array, 1, dim, data, i * dim));
      content.vectors.push({
        tenantId: t as string,
        model: { id: m as string, dim },
        ids: rows.map((r) => r[0] as string),
        data,
      });
    }
  }
  return buildExport(content);
}

/** Write a validated export as one record (inside `serial`): merged, or replacing the tenants it covers. */
export async function importDoc(ctx: TransferContext, valid: ValidatedExport, replace: boolean): Promise<ImportReport> {
  const store = ctx.store;
  if (replace || valid.vectors.length > 0) await ctx.ensureVectors();
  if (!replace) for (const g of valid.vectors) checkDim(store, g.tenantId, g.model);
  else {
    const dims = new Map<string, number>();
    for (const g of valid.vectors) {
      const key = `${g.tenantId}\u0000${g.model.id}`;
      if (dims.has(key) && dims.get(key) !== g.model.dim)
        invalid('export.vectors', `one dim per tenant and model (${g.model.id})`, g.model.dim);
      dims.set(key, g.model.dim);
    }
  }
  let updated = 0;
  if (!replace) {
    for (const e of valid.entries)
      if (store.rows('SELECT 1 FROM entries WHERE tenant_id = ? AND id = ?', [e.tenantId, e.id]).length > 0) updated++;
  }
  // A tenant-limited export replaces only its tenants; the others are not part of the document.
  const scope = replace ? valid.tenants : undefined;
  const vec: VecWrite[] = !replace
    ? []
    : scope
      ? scope.map((t) => ({ op: { o: 'vdel', t } }))
      : [{ op: { o: 'vdel' } }];
  for (const g of valid.vectors) vec.push(store.vectorPut(g.tenantId, g.model, g.ids, g.data));
  await ctx.commit({ o: 'import', replace, ...(scope ? { ts: scope } : {}), e: valid.entries, p: valid.profiles }, vec);
  return {
    added: valid.entries.length - updated,
    updated,
    profiles: valid.profiles.length,
    vectors: valid.vectors.reduce((n, g) => n + g.ids.length, 0),
  };
}

/** Automatic backups (when: core's {@link BackupSchedule}) and their retention; `backupStore` is the driver (or an in-memory one). */
export class Backups {
  readonly schedule: BackupSchedule;

  constructor(
    readonly ctx: TransferContext,
    readonly backupStore: Persistence,
    readonly auto: Required<AutoBackupOptions>,
  ) {
    this.schedule = new BackupSchedule(
      auto.enabled
        ? { everyNewEntries: auto.everyNewEntries, intervalMs: auto.intervalMs, clock: ctx.clock }
        : { clock: ctx.clock },
    );
  }

  /** Write a backup (inside `serial`) and prune to `keep`. */
  async create(includeVectors: boolean): Promise<BackupInfo> {
    const now = this.ctx.clock();
    const doc = await exportDoc(this.ctx, { includeVectors });
    // `seq`: the last main-log record the backup includes, so a restore replays only newer ones.
    const bytes = await encodeRecord(
      { o: 'backup', doc, seq: this.ctx.store.mainSeq },
      undefined,
      this.ctx.store.cipher,
    );
    const stamp = new Date(now)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const info: BackupInfo = {
      id: `backup-${stamp}-${globalThis.crypto.randomUUID().slice(0, 8)}`,
      createdAt: now,
      size: bytes.length,
    };
    await guard('write the backup', () => this.backupStore.putBackup(info, bytes));
    this.schedule.backedUp(now);
    const all = await guard('list backups', () => this.backupStore.listBackups());
    for (const old of all.slice(0, Math.max(0, all.length - this.auto.keep)))
      await guard('prune old backups', () => this.backupStore.deleteBackup(old.id));
    return info;
  }

  /** Where automatic backups stand after opening: the last backup's time and the entries since. */
  async init(): Promise<void> {
    const last = (await guard('list backups', () => this.backupStore.listBackups())).at(-1);
    this.schedule.start({
      since: last?.createdAt ?? this.ctx.clock(),
      newEntries: last
        ? Number(this.ctx.store.rows('SELECT count(*) FROM entries WHERE created_at > ?', [last.createdAt])[0]![0])
        : 0,
    });
  }

  /** Back up now when the automatic policy says so (inside `serial`). */
  async maybeBackup(): Promise<void> {
    if (this.schedule.due()) await this.create(this.auto.includeVectors);
  }

  /** The decoded, validated export inside backup `id`, and the last main-log seq it includes (absent in older backups). */
  async read(id: string): Promise<{ valid: ValidatedExport; seq: number | undefined }> {
    const bytes = await guard('read the backup', () => this.backupStore.getBackup(id));
    if (!bytes) throw new ZerdaError('NOT_FOUND', `No backup with id ${id}`);
    const rec = await decodeRecord<{ o: string; doc: ZerdaExport; seq?: number }>(bytes, this.ctx.store.cipher).catch(
      (e: unknown) => {
        throw openFailure(`backup ${id}`, e);
      },
    );
    const seq = rec.header.seq;
    return { valid: validateExport(rec.header.doc), seq: Number.isInteger(seq) ? seq : undefined };
  }
}

/**
 * Re-encrypt everything (snapshot, vectors, backups) with `cipher` (or none), as one replacement
 * of the whole store (inside `serial`). On failure the old key stays valid.
 */
export async function reEncrypt(
  ctx: TransferContext,
  backupStore: Persistence,
  cipher: Cipher | undefined,
): Promise<void> {
  const store = ctx.store;
  await ctx.ensureVectors();
  const backups: { info: BackupInfo; bytes: Uint8Array }[] = [];
  for (const info of await guard('list backups', () => backupStore.listBackups())) {
    const old = await guard('read a backup', () => backupStore.getBackup(info.id));
    if (!old) continue;
    const rec = await decodeRecord<unknown>(old, store.cipher).catch((e: unknown) => {
      throw openFailure(`backup ${info.id}`, e);
    });
    const bytes = await encodeRecord(rec.header, undefined, cipher);
    backups.push({ info: { ...info, size: bytes.length }, bytes });
  }
  const snapshot = await store.snapshotRecord(cipher);
  const state = {
    meta: await makeMeta(cipher),
    main: { base: [snapshot], upto: store.mainSeq },
    vectors: { base: await store.vectorBase(cipher), upto: store.vecSeq },
    backups,
  };
  if (store.p) await guard('re-encrypt the database', () => store.p!.replaceAll(state));
  else for (const b of backups) await backupStore.putBackup(b.info, b.bytes);
  store.cipher = cipher;
  store.logCount = 0;
  store.logBytes = 0;
  if (store.p) store.snapshotBytes = snapshot.length;
  store.vecLogCount = 0;
}
