import { env } from '#transformers';

// transformers.js builds every model file's location as `<localModelPath>/<model>/<file>`, which
// cannot express bundler-hashed asset URLs. Each file map gets a unique virtual `localModelPath`,
// and a fetch wrapper installed once answers those paths from the map.
const PREFIX = '/@zerda-model-files/';

interface FileMap {
  files: Record<string, string>;
  /** Bodies read during a load, by URL: transformers.js fetches each file twice (size, then data). */
  bodies: Map<string, Promise<Response>>;
}

const maps = new Map<string, FileMap>();
let counter = 0;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const original = env.fetch;
  env.fetch = (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    if (!url.startsWith(PREFIX)) return original(input, init);
    const rest = url.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    const map = maps.get(rest.slice(0, slash));
    // The first path segment after the key is the model name; the remainder is the file.
    const file = rest.slice(slash + 1).replace(/^[^/]*\//, '');
    const target = map?.files[file];
    if (map === undefined || target === undefined) return Promise.resolve(new Response(null, { status: 404 }));
    let body = map.bodies.get(target);
    if (!body) {
      body = original(target, init).then(readWhole);
      map.bodies.set(target, body);
      body.then(
        (r) => {
          if (!r.ok) map.bodies.delete(target);
        },
        () => map.bodies.delete(target),
      );
    }
    return body.then((r) => r.clone());
  };
}

/**
 * Read a same-origin model file once, whole, and answer with a `Content-Length`: transformers.js
 * asks for every file twice (first only for its size, which it reads from that header; it warns
 * on every file without one, such as inlined `data:` URLs and compressed responses). Sharing one
 * read halves the bytes fetched on a first visit.
 */
async function readWhole(response: Response): Promise<Response> {
  if (!response.ok || !response.body) return response;
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.set('content-length', String(body.byteLength));
  headers.delete('content-encoding');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Register a file map; returns the virtual `localModelPath` that serves it. */
export function registerModelFiles(files: Record<string, string>): string {
  install();
  const key = String(counter++);
  maps.set(key, { files, bodies: new Map() });
  return `${PREFIX}${key}/`;
}

/** Forget a file map registered with {@link registerModelFiles}. */
export function unregisterModelFiles(localModelPath: string): void {
  maps.delete(localModelPath.slice(PREFIX.length).replace(/\/$/, ''));
}

/** Drop the file bodies kept for a load (call once the model is loaded). */
export function releaseModelFileBodies(localModelPath: string): void {
  maps.get(localModelPath.slice(PREFIX.length).replace(/\/$/, ''))?.bodies.clear();
}
