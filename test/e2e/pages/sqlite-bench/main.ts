// Benchmark page for test/bench/sqlite-browser.ts: real IndexedDB (strict durability) in Chromium.
import { IndexedDbPersistence } from '@zerda/sqlite';
import { sqlWasmUrl } from '@zerda/sqlite/vite';
import { benchAll } from '../../../bench/sqlite-bench-core.js';
import type { SizeFigures } from '../../../bench/sqlite-bench-core.js';

let baseline: Promise<IDBDatabase> | undefined;

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function baselineDb(): Promise<IDBDatabase> {
  baseline ??= new Promise((resolve, reject) => {
    const r = indexedDB.open('zerda-bench-baseline', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('files');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return baseline;
}

async function storeWhole(name: string, bytes: Uint8Array): Promise<void> {
  const db = await baselineDb();
  const tx = db.transaction('files', 'readwrite', { durability: 'strict' });
  void req(tx.objectStore('files').put(bytes, name));
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

const logs: string[] = [];
(
  globalThis as unknown as { sqliteBench: (sizes: number[]) => Promise<{ figures: SizeFigures[]; logs: string[] }> }
).sqliteBench = async (sizes) => {
  const figures = await benchAll(
    {
      persistence: (name) => new IndexedDbPersistence({ name }),
      storeWhole,
      options: { locateFile: () => sqlWasmUrl },
      log: (l) => logs.push(l),
    },
    sizes,
  );
  return { figures, logs };
};
document.getElementById('out')!.textContent = 'ready';
