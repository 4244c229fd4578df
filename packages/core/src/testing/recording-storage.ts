import type { StorageAdapter } from '../storage/storage.js';

/** The `StorageAdapter` methods that write. */
const WRITE_METHODS = new Set([
  'put',
  'putMany',
  'delete',
  'deleteMany',
  'putVectors',
  'deleteVectors',
  'putProfile',
  'clearTenant',
]);

/**
 * The same adapter, recording the name of each write method called on it, in order, in `writes`
 * (reads are not recorded): for tests that check a read path writes nothing.
 */
export function recordingStorage(inner: StorageAdapter): { storage: StorageAdapter; writes: string[] } {
  const writes: string[] = [];
  const storage = new Proxy(inner, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof prop === 'string' && WRITE_METHODS.has(prop)) writes.push(prop);
        // Called on the target: adapters keep their state in #private fields.
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage, writes };
}
