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

/** A model file request that did not get the file: what transformers.js asked for, and what answered. */
export interface FailedFetch {
  /** The location transformers.js requested (a virtual path for `modelFiles`). */
  requested: string;
  /** What was really fetched, as an absolute URL where one is known. */
  url: string;
  /** The HTTP status (0 for a network error or a file absent from `modelFiles`). */
  status: number;
  /** Why the response is not the file, in words. */
  reason: string;
}

const maps = new Map<string, FileMap>();
let counter = 0;
let installed = false;
/** Failed requests of the load in progress (loads run one at a time), or undefined between loads. */
let failures: FailedFetch[] | undefined;

function absolute(url: string): string {
  try {
    return new URL(url, (globalThis as { location?: { href: string } }).location?.href).href;
  } catch {
    return url;
  }
}

/** Note a response that is not a model file: an error status, or an HTML page (an SPA fallback). */
function check(requested: string, target: string, response: Response): Response {
  const html = response.ok && /^text\/html/i.test(response.headers.get('content-type') ?? '');
  if (failures && (!response.ok || html))
    failures.push({
      requested,
      url: response.url || absolute(target),
      status: response.status,
      reason: html
        ? `answered ${response.status} with an HTML page, not the file`
        : `answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    });
  return response;
}

function fetchChecked(
  original: typeof env.fetch,
  requested: string,
  target: string,
  init: RequestInit | undefined,
): Promise<Response> {
  return original(target, init).then(
    (r) => check(requested, target, r),
    (e: unknown) => {
      failures?.push({ requested, url: absolute(target), status: 0, reason: `could not be fetched (${String(e)})` });
      throw e;
    },
  );
}

function install(): void {
  if (installed) return;
  installed = true;
  const original = env.fetch;
  env.fetch = (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    if (!url.startsWith(PREFIX)) return fetchChecked(original, url, url, init);
    const rest = url.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    const map = maps.get(rest.slice(0, slash));
    // The first path segment after the key is the model name; the remainder is the file.
    const file = rest.slice(slash + 1).replace(/^[^/]*\//, '');
    const target = map?.files[file];
    if (map === undefined || target === undefined) {
      failures?.push({ requested: url, url: file, status: 0, reason: 'is not in `modelFiles`' });
      return Promise.resolve(new Response(null, { status: 404 }));
    }
    let body = map.bodies.get(target);
    if (!body) {
      body = fetchChecked(original, url, target, init).then(readWhole);
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

/**
 * Record the model file requests that fail while `task` (one model load) runs. When it rejects,
 * the error names the URL that failed and how (transformers.js names the location it asked for,
 * which for `modelFiles` is an internal virtual path, and never the status).
 */
export async function withFetchReport<T>(task: () => Promise<T>): Promise<T> {
  install();
  const seen: FailedFetch[] = [];
  failures = seen;
  try {
    return await task();
  } catch (e) {
    const failure = culprit(e, seen);
    if (!failure) throw e;
    const where = failure.status === 0 && failure.reason.startsWith('is not') ? `"${failure.url}"` : failure.url;
    throw new Error(`${where} ${failure.reason}`, { cause: e });
  } finally {
    if (failures === seen) failures = undefined;
  }
}

/** The failed request a load error is about: the one its message names, else the last HTML page. */
function culprit(e: unknown, seen: FailedFetch[]): FailedFetch | undefined {
  const message = e instanceof Error ? e.message : String(e);
  for (let i = seen.length - 1; i >= 0; i--) if (message.includes(seen[i]!.requested)) return seen[i];
  return seen.findLast((f) => f.reason.includes('HTML'));
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
