import { env } from '@huggingface/transformers';

// transformers.js builds every model file's location as `<localModelPath>/<model>/<file>`, which
// cannot express bundler-hashed asset URLs. Each file map gets a unique virtual `localModelPath`,
// and a fetch wrapper installed once answers those paths from the map.
const PREFIX = '/@zerda-model-files/';
const maps = new Map<string, Record<string, string>>();
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
    const files = maps.get(rest.slice(0, slash));
    // The first path segment after the key is the model name; the remainder is the file.
    const file = rest.slice(slash + 1).replace(/^[^/]*\//, '');
    const target = files?.[file];
    if (target === undefined) return Promise.resolve(new Response(null, { status: 404 }));
    return original(target, init);
  };
}

/** Register a file map; returns the virtual `localModelPath` that serves it. */
export function registerModelFiles(files: Record<string, string>): string {
  install();
  const key = String(counter++);
  maps.set(key, files);
  return `${PREFIX}${key}/`;
}

/** Forget a file map registered with {@link registerModelFiles}. */
export function unregisterModelFiles(localModelPath: string): void {
  maps.delete(localModelPath.slice(PREFIX.length).replace(/\/$/, ''));
}
