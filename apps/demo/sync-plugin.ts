import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connect, Plugin } from 'vite';
import { MemoryRecordStore, createSyncHandler, tokenVerifier } from '@zerda/sync/server';

/** Where the demo's sync server answers, on the demo's own origin (no CORS, no second port). */
export const SYNC_PATH = '/sync';
/** The bearer token of the demo's sync server (it serves the demo's tenant). */
export const DEMO_SYNC_TOKEN = 'zerda-demo-sync';

/** A sync request handler: `createSyncHandler`'s, or a test's wrapper around one. */
export type SyncRequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * Serves the `@zerda/sync` protocol at `/sync` from the demo's Vite server (dev and preview):
 * `createSyncHandler` over an in-memory record store by default (what `bash scripts/demo.sh`
 * runs: records last as long as the server), or the given handler (the e2e specs put one over
 * PostgreSQL there).
 */
export function syncServer(handler?: SyncRequestHandler): Plugin {
  const handle =
    handler ??
    createSyncHandler({
      store: new MemoryRecordStore(),
      verify: tokenVerifier({ [DEMO_SYNC_TOKEN]: { tenants: ['demo'] } }),
      quota: { records: 100_000, bytes: 200 * 1024 * 1024 },
    });
  const mount = (middlewares: Connect.Server): void => {
    middlewares.use(SYNC_PATH, (req, res) => {
      void handle(req, res);
    });
  };
  return {
    name: 'zerda-demo-sync-server',
    configureServer(server) {
      mount(server.middlewares);
    },
    configurePreviewServer(server) {
      mount(server.middlewares);
    },
  };
}
