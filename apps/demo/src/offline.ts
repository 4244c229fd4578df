/** Service-worker registration and the "offline-ready" indicator. */

/** Offline status as shown in the header. */
export type OfflineState = 'unsupported' | 'dev' | 'caching' | 'ready' | 'error';

/**
 * Register `sw.js` (production builds only: the dev server's module graph is not worth caching)
 * and report when the app, its WASM and the model are all in the cache (the build's
 * `precache-manifest.json` lists them, worker bundles and model files included).
 */
export async function registerOffline(onState: (state: OfflineState, detail?: string) => void): Promise<void> {
  if (!('serviceWorker' in navigator)) return onState('unsupported');
  // `import.meta.hot` exists only under the dev server (NODE_ENV may say otherwise in test runners).
  if (import.meta.hot) return onState('dev', 'service worker off under the dev server');
  try {
    navigator.serviceWorker.addEventListener(
      'message',
      (e: MessageEvent<{ type: string; count?: number; error?: string }>) => {
        if (e.data?.type === 'precached') onState('ready', `${e.data.count} files cached`);
        if (e.data?.type === 'precache-failed') onState('error', e.data.error);
      },
    );
    onState('caching');
    await navigator.serviceWorker.register(new URL('sw.js', document.baseURI), { scope: './' });
    const registration = await navigator.serviceWorker.ready;
    // Ask the worker to (re)check its cache: it answers `precached` once everything is stored.
    registration.active?.postMessage({ type: 'precache' });
  } catch (err) {
    onState('error', err instanceof Error ? err.message : String(err));
  }
}
