import { ZerdaError } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import type { VectorModel } from '@zerda/core';
import { guard } from './persistence.js';
import { vectorRowsPrecision } from '@zerda/core/adapter';
import { RecordError, checkSeq, decodeRecord, openFailure } from './record-codec.js';
import { applyVec, storedDim, transaction } from './sql-apply.js';
import type { VecOp } from './sql-apply.js';
import type { Store } from './store.js';

// Lazy vectors and their repair: the vector stream is read into `vec.vectors` on first use, so
// opening costs only the text. A corrupt vector base is dropped and rewritten (vectors are derived
// data), and reported through `maintenanceError`.

/**
 * Load the vector stream into `vec.vectors` if not loaded yet (inside `store.serial`). Resolves to
 * the error to report when a corrupt base was dropped and rewritten, else `undefined`.
 */
export async function ensureVectors(store: Store): Promise<ZerdaError | undefined> {
  if (store.vectors === 'loaded') return undefined;
  if (!store.p) {
    store.vectors = 'loaded';
    return undefined;
  }
  const p = store.p;
  const s = await guard('read the vector store', () => p.read('vectors'));
  const decoded: { op: VecOp; bytes?: Uint8Array }[] = [];
  let baseLost: ZerdaError | undefined;
  if (s.corrupt !== undefined) baseLost = openFailure('vector store', new RecordError('format', s.corrupt));
  else if (s.base.length > 0) {
    try {
      const head = await decodeRecord<{ o: string; n: number }>(s.base[0]!, store.cipher);
      if (head.header.o !== 'vbase' || head.header.n !== s.base.length - 1)
        throw new RecordError('format', 'vector base is incomplete');
      for (const b of s.base.slice(1)) {
        const rec = await decodeRecord<VecOp>(b, store.cipher);
        decoded.push({ op: rec.header, bytes: vputRows(rec.header, rec.tail) });
      }
    } catch (e) {
      // Vectors are derived data (re-embedding rebuilds them) and the key was checked at open.
      // Failing every vector call instead would break all recall and context building, with
      // no way out (restoreBackup and importJson load vectors first), so the corrupt base is
      // dropped, rewritten below, and reported.
      baseLost = openFailure('vector store', e);
      decoded.length = 0;
    }
  }
  let bad: number | undefined;
  let last = s.upto;
  let count = 0;
  for (const [i, r] of s.log.entries()) {
    if (r.seq <= s.upto) continue;
    try {
      if (r.seq <= last) throw new RecordError('format', `vector log record ${r.seq} out of order`);
      const rec = await decodeRecord<VecOp>(r.bytes, store.cipher);
      checkSeq(rec.header, r.seq);
      decoded.push({ op: rec.header, bytes: rec.header.o === 'vput' ? vputRows(rec.header, rec.tail) : undefined });
    } catch (e) {
      if (!(e instanceof RecordError)) throw openFailure('vector log', e);
      bad = i;
      break;
    }
    last = r.seq;
    count++;
  }
  if (bad !== undefined || s.torn) {
    await guard('drop the corrupt vector log tail', () => p.truncateLog('vectors', bad ?? s.log.length));
  }
  transaction(store.db, () => {
    for (const d of decoded) applyVec(store.db, d.op, d.bytes);
  });
  store.vecLogCount = count;
  store.vectors = 'loaded';
  if (!baseLost) return undefined;
  await store.compactVectors();
  return new ZerdaError(
    'STORAGE',
    `The vector store was corrupt (${baseLost.message.replace(/ Nothing was overwritten\..*$/, '')}); the vectors it held were dropped and the store rewritten. ` +
      'Memories are intact; manager.reindex(tenantId) embeds them again (a MemoryManager also does it on the first recall of each tenant).',
    { cause: baseLost },
  );
}

/** Throw `VALIDATION` when the tenant already holds vectors of `model.id` with another dim. */
export function checkDim(store: Store, tenantId: string, model: VectorModel): void {
  const dim = storedDim(store.db, tenantId, model.id);
  if (dim !== undefined && dim !== model.dim)
    invalid('model.dim', `${dim} (stored vectors of model ${model.id})`, model.dim);
}

/**
 * The rows of a `vput` record (its tail) after checking that their length fits the record's ids and
 * dim at one of the precisions (`encodeVectorRows`); a tail that fits neither is a corrupt record.
 */
function vputRows(op: VecOp, tail: Uint8Array): Uint8Array {
  if (
    op.o !== 'vput' ||
    !Array.isArray(op.ids) ||
    vectorRowsPrecision(tail.byteLength, op.ids.length, op.d) === undefined
  )
    throw new RecordError('format', 'vector record rows do not match its ids and dim');
  return tail;
}
