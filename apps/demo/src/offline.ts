/** Service-worker registration and the "offline-ready" indicator. */

/** Offline status as shown in the header. */
export type OfflineState = 'unsupported' | 'dev' | 'caching' | 'ready' | 'error';

/**
 * Register Zerda's service worker (`zerda-sw.js`, emitted by `zerda({ serviceWorker: true })`;
 * production builds only: the dev server's module graph is not worth caching) and report when the
 * app, its WASM and the model are all in the cache (`zerda-precache.json` lists them).
 */
export async function registerOffline(onState: (state: OfflineState, detail?: string) => void): Promise<void> {
  if (!('serviceWorker' in navigator)) return onState('unsupported');
  // `import.meta.hot` exists only under the dev server (NODE_ENV may say otherwise in test runners).
  if (import.meta.hot) return onState('dev', 'service worker off under the dev server');
  try {
    navigator.serviceWorker.addEventListener(
      'message',
      (e: MessageEvent<{ type: string; count?: number; error?: string }>) => {
        if (e.data?.type === 'zerda-precached') onState('ready', `${e.data.count} files cached`);
        if (e.data?.type === 'zerda-precache-failed') onState('error', e.data.error);
      },
    );
    onState('caching');
    const registration = await navigator.serviceWorker.register(new URL('zerda-sw.js', document.baseURI), {
      scope: './',
    });
    // The worker only activates once every file is cached; an install that fails (a file that
    // cannot be fetched) leaves it redundant, and the next visit tries again.
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'redundant' && !registration.active) {
        onState('error', 'could not cache the app for offline use (see the console)');
      }
    });
    const ready = await navigator.serviceWorker.ready;
    // Ask the worker to (re)check its cache: it answers `zerda-precached` once everything is stored.
    ready.active?.postMessage({ type: 'zerda-precache' });
  } catch (err) {
    onState('error', err instanceof Error ? err.message : String(err));
  }
}
