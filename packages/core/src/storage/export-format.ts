import { validateProfile } from '../dynamics/profile-manager.js';
import { validateEntry } from '../model/entry.js';
import { ZerdaError, invalid, isZerdaError } from '../model/errors.js';
import type { MemoryEntry, UserProfile } from '../model/types.js';
import { bytesToFloats, floatsToBytes, fromBase64, toBase64 } from '../util/bytes.js';
import { checkKey, checkModel } from './storage-checks.js';
import type { VectorModel } from './storage.js';

// The `zerda-export` document: the portable JSON form of a memory store (exports, backups, the
// MCP server's JSON files). One builder writes it, one validator reads it.

/** The `format` field of every export. */
export const EXPORT_FORMAT = 'zerda-export';

/** Current version of the JSON export format (documents of versions 1..EXPORT_VERSION import). */
export const EXPORT_VERSION = 1;

/** Vectors of one tenant and model in an export: `data` is base64 of little-endian float32, row i = `ids[i]`. */
export interface ExportedVectors {
  tenantId: string;
  model: VectorModel;
  ids: string[];
  data: string;
}

/**
 * A versioned, self-contained JSON export (also the content of every backup). Re-importing it
 * anywhere gives identical entries and profiles (every field kept, ids included).
 */
export interface ZerdaExport {
  format: typeof EXPORT_FORMAT;
  version: number;
  /** Epoch ms. */
  exportedAt: number;
  /** Tenants the export was limited to, when it was. */
  tenants?: string[];
  entries: MemoryEntry[];
  profiles: UserProfile[];
  /** Present when vectors were included. */
  vectors?: ExportedVectors[];
}

/** Vectors of one tenant and model, as arrays (what {@link buildExport} encodes). */
export interface VectorGroup {
  tenantId: string;
  model: VectorModel;
  ids: string[];
  /** Row i = `ids[i]`, `model.dim` floats each. */
  data: Float32Array;
}

/** What an export holds; {@link buildExport} adds the format, the version and the encoding. */
export interface ExportContent {
  /** Epoch ms. */
  exportedAt: number;
  /** Set when the export is limited to these tenants (a `replace` import then replaces only them). */
  tenants?: string[];
  entries: MemoryEntry[];
  profiles: UserProfile[];
  /** Include to export vectors (may be empty). */
  vectors?: VectorGroup[];
}

/** Build a `zerda-export` document of the current {@link EXPORT_VERSION}. */
export function buildExport(content: ExportContent): ZerdaExport {
  const doc: ZerdaExport = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: content.exportedAt,
    ...(content.tenants === undefined ? {} : { tenants: [...content.tenants] }),
    entries: content.entries,
    profiles: content.profiles,
  };
  if (content.vectors)
    doc.vectors = content.vectors.map((g) => ({
      tenantId: g.tenantId,
      model: { id: g.model.id, dim: g.model.dim },
      ids: [...g.ids],
      data: toBase64(floatsToBytes(g.data)),
    }));
  return doc;
}

/** A validated export, ready to write. */
export interface ValidatedExport {
  /** The tenants a limited export covers (`replace` then replaces only these). */
  tenants?: string[];
  entries: MemoryEntry[];
  profiles: UserProfile[];
  vectors: VectorGroup[];
}

/**
 * Validate a whole export (a parsed object or its JSON text) before anything is written.
 * Throws `VALIDATION` naming the first bad item (`entries[3].importance`, ...).
 */
export function validateExport(input: unknown): ValidatedExport {
  let doc = input;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc) as unknown;
    } catch (e) {
      invalid('export', 'valid JSON', e instanceof Error ? e.message : 'unparseable text');
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) invalid('export', 'an object', doc);
  const d = doc as Partial<ZerdaExport>;
  if (d.format !== EXPORT_FORMAT) invalid('export.format', `"${EXPORT_FORMAT}"`, d.format);
  if (!Number.isInteger(d.version) || (d.version as number) < 1 || (d.version as number) > EXPORT_VERSION)
    invalid('export.version', `an integer in [1, ${EXPORT_VERSION}]`, d.version);
  if (!Array.isArray(d.entries)) invalid('export.entries', 'an array', d.entries);
  if (!Array.isArray(d.profiles)) invalid('export.profiles', 'an array', d.profiles);
  const entries = validateUnique('export.entries', d.entries, validateEntry, 'id');
  const profiles = validateUnique('export.profiles', d.profiles, validateProfile, 'userId');
  const vectors: ValidatedExport['vectors'] = [];
  if (d.vectors !== undefined) {
    if (!Array.isArray(d.vectors)) invalid('export.vectors', 'an array', d.vectors);
    d.vectors.forEach((g, i) => {
      const f = `export.vectors[${i}]`;
      if (typeof g !== 'object' || g === null) invalid(f, 'an object {tenantId, model, ids, data}', g);
      checkKey(`${f}.tenantId`, g.tenantId);
      at(`${f}`, () => checkModel(g.model));
      if (!Array.isArray(g.ids)) invalid(`${f}.ids`, 'an array of strings', g.ids);
      g.ids.forEach((id) => checkKey(`${f}.ids[]`, id));
      if (new Set(g.ids).size !== g.ids.length) invalid(`${f}.ids`, 'unique ids', g.ids);
      if (typeof g.data !== 'string') invalid(`${f}.data`, 'base64 float32 data', g.data);
      let data: Float32Array;
      try {
        const bytes = fromBase64(g.data);
        if (bytes.length % 4 !== 0) throw new Error('length');
        data = bytesToFloats(bytes);
      } catch {
        return invalid(`${f}.data`, 'base64 of little-endian float32 values', 'undecodable data');
      }
      if (data.length !== g.ids.length * g.model.dim)
        invalid(`${f}.data`, `${g.ids.length * g.model.dim} floats (ids × dim)`, data.length);
      for (const x of data) if (!Number.isFinite(x)) invalid(`${f}.data`, 'finite values', x);
      vectors.push({ tenantId: g.tenantId, model: { id: g.model.id, dim: g.model.dim }, ids: [...g.ids], data });
    });
  }
  let tenants: string[] | undefined;
  if (d.tenants !== undefined) {
    if (!Array.isArray(d.tenants) || d.tenants.length === 0)
      invalid('export.tenants', 'a non-empty array of tenant ids', d.tenants);
    d.tenants.forEach((t, i) => checkKey(`export.tenants[${i}]`, t));
    const scope = new Set(d.tenants);
    const outside = [...entries, ...profiles, ...vectors].find((x) => !scope.has(x.tenantId));
    if (outside) invalid('export.tenants', `to include every tenant in the document`, outside.tenantId);
    tenants = [...scope];
  }
  return { ...(tenants ? { tenants } : {}), entries, profiles, vectors };
}

function at<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isZerdaError(e, 'VALIDATION'))
      throw new ZerdaError('VALIDATION', `${path}: ${e.message}`, { details: { ...e.details, path } });
    throw e;
  }
}

/** Validates each item of `list` (errors name `path[i]`); no two may share `(tenantId, key)`. */
function validateUnique<T extends { tenantId: string }, K extends keyof T & string>(
  path: string,
  list: T[],
  validate: (x: T) => T,
  key: K,
): T[] {
  const seen = new Set<string>();
  return list.map((x, i) => {
    const v = at(`${path}[${i}]`, () => validate(x));
    const k = `${v.tenantId}\u0000${String(v[key])}`;
    if (seen.has(k)) invalid(`${path}[${i}]`, `a unique (tenantId, ${key})`, v[key]);
    seen.add(k);
    return v;
  });
}
