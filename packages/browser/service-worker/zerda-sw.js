// Zerda's service worker for Vite apps: after one online visit the app opens, remembers and
// recalls offline. Emitted by `zerda({ serviceWorker: true })` next to `zerda-precache.json`, the
// list of every file of the build (app chunks, the model worker, ONNX Runtime's and sql.js' WASM,
// the model). Install caches all of them (and fails, to retry on the next visit, if one cannot be
// fetched); hashed files are served cache-first, pages network-first, so a new deploy is picked
// up online and the last one keeps working offline. A page may post `{ type: 'zerda-precache' }`
// to (re)check the cache: the worker answers `{ type: 'zerda-precached', count }` once every file
// is stored, or `{ type: 'zerda-precache-failed', error }`.
const PREFIX = 'zerda-precache-';
const MANIFEST = new URL('zerda-precache.json', self.location.href).href;
const BASE = new URL('./', self.location.href).href;

// The list from the network (a new deploy), else the copy cached with the last install.
async function loadManifest() {
  try {
    const response = await fetch(MANIFEST, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${MANIFEST}: HTTP ${response.status}`);
    return await response.json();
  } catch (err) {
    const cached = await caches.match(MANIFEST);
    if (!cached) throw err;
    return cached.json();
  }
}

async function precache() {
  const manifest = await loadManifest();
  const name = PREFIX + manifest.version;
  const cache = await caches.open(name);
  for (const file of manifest.files) {
    const url = new URL(file, BASE).href;
    if (await cache.match(url)) continue;
    // Through the HTTP cache: files the page has just loaded cost a 304, not a second download.
    const response = await fetch(url, { cache: 'no-cache' });
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
    await cache.put(url, response);
  }
  await cache.put(
    MANIFEST,
    new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } }),
  );
  for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== name) await caches.delete(key);
  return manifest.files.length;
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    precache().then(
      () => self.skipWaiting(),
      (err) => {
        console.error('[zerda] service worker: could not cache the app for offline use:', err);
        throw err;
      },
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'zerda-precache') return;
  const reply = (msg) => event.source?.postMessage(msg);
  event.waitUntil(
    precache().then(
      (count) => reply({ type: 'zerda-precached', count }),
      (err) => reply({ type: 'zerda-precache-failed', error: String(err?.message ?? err) }),
    ),
  );
});

// ignoreVary: preview servers vary on Origin, and module scripts are CORS requests.
const fromCache = (request) => caches.match(request, { ignoreSearch: request.mode === 'navigate', ignoreVary: true });

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !request.url.startsWith(BASE) || request.url === MANIFEST) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request).catch(async () => (await fromCache(request)) ?? (await caches.match(BASE)) ?? Response.error()),
    );
    return;
  }
  event.respondWith(fromCache(request).then((hit) => hit ?? fetch(request)));
});
