// Zerda demo service worker: makes the playground work offline after the first visit.
// The build emits precache-manifest.json (every chunk, worker, WASM and model file); this worker
// caches all of it, serves hashed files cache-first and the page itself network-first, so a new
// deploy is picked up when online and the last one keeps working when offline.
const PREFIX = 'zerda-demo-';
const MANIFEST = new URL('precache-manifest.json', self.registration.scope).href;

// The manifest from the network (a new deploy), else the copy cached with the last precache.
async function loadManifest() {
  try {
    const response = await fetch(MANIFEST, { cache: 'no-store' });
    if (!response.ok) throw new Error(`manifest: HTTP ${response.status}`);
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
  const urls = manifest.urls.map((u) => new URL(u, self.registration.scope).href);
  for (const url of urls) {
    if (await cache.match(url)) continue;
    // Revalidate through the HTTP cache: files the page has just loaded cost a 304, not a second download.
    const response = await fetch(url, { cache: 'no-cache' });
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
    await cache.put(url, response);
  }
  await cache.put(
    MANIFEST,
    new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } }),
  );
  for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== name) await caches.delete(key);
  return urls.length;
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    precache()
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'precache') return;
  const reply = (msg) => event.source?.postMessage(msg);
  event.waitUntil(
    precache().then(
      (count) => reply({ type: 'precached', count }),
      (err) => reply({ type: 'precache-failed', error: String(err?.message ?? err) }),
    ),
  );
});

async function fromCache(request) {
  // ignoreVary: the preview server varies on Origin, and module scripts are CORS requests.
  return caches.match(request, { ignoreSearch: request.mode === 'navigate', ignoreVary: true });
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // An authenticated request (the Sync panel's sync server) is an API call: never cached.
  if (request.headers.has('authorization')) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request).catch(
        async () => (await fromCache(request)) ?? (await caches.match(self.registration.scope)) ?? Response.error(),
      ),
    );
    return;
  }
  if (request.url === MANIFEST) return;
  event.respondWith(
    fromCache(request).then(async (hit) => {
      if (hit) return hit;
      const response = await fetch(request);
      if (response.status === 200 && response.type === 'basic') {
        const copy = response.clone();
        const keys = await caches.keys();
        const current = keys.filter((k) => k.startsWith(PREFIX)).pop();
        if (current) await (await caches.open(current)).put(request, copy);
      }
      return response;
    }),
  );
});
