import { openBrowserMemory, type BrowserMemory, type OpenProgress } from '@zerda/browser/vite';
import type { Clock } from '@zerda/core';

/** IndexedDB database of the demo. */
export const DATABASE = 'zerda-demo';
const ENCRYPTED_KEY = 'zerda-demo:encrypted';

/** Open the demo's memory: IndexedDB + the bundled model in a worker, with the demo clock. */
export function openDemoMemory(options: {
  clock: Clock;
  passphrase?: string;
  onProgress: (p: OpenProgress) => void;
}): Promise<BrowserMemory> {
  return openBrowserMemory({
    name: DATABASE,
    clock: options.clock,
    ...(options.passphrase ? { passphrase: options.passphrase } : {}),
    // Automatic backups by time only: the default (every 100 new memories) would write a full
    // backup per batch during a bulk import, each one a long task on the page.
    sqlite: { backups: { everyNewEntries: 100_000, keep: 5 } },
    systemPrompt:
      'You are a helpful assistant. Use the memories below when they are relevant; do not invent facts about the user.',
    onProgress: options.onProgress,
  });
}

/** Whether this browser last left the demo database encrypted (so the unlock form shows first). */
export function isMarkedEncrypted(): boolean {
  return localStorage.getItem(ENCRYPTED_KEY) === '1';
}

/** Remember whether the database is encrypted. */
export function markEncrypted(on: boolean): void {
  if (on) localStorage.setItem(ENCRYPTED_KEY, '1');
  else localStorage.removeItem(ENCRYPTED_KEY);
}
