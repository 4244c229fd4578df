/**
 * What the popup asks the background for. The background forwards it to the offscreen document
 * (the memory with the model), or, with `where: 'service-worker'`, answers it from the small memory
 * it keeps itself without a model (`embedder: 'hash'`).
 */
export type Request = ({ type: 'remember'; text: string } | { type: 'recall'; query: string }) & {
  where?: 'offscreen' | 'service-worker';
};

/** The answer: recalled texts, or an error message. */
export type Reply = { ok: true; texts: string[] } | { ok: false; error: string };

/** A request on its way to the offscreen document (the only page that acts on `target: 'offscreen'`). */
export type ToOffscreen = Request & { target: 'offscreen' };

/** A request from the popup to the background service worker. */
export type ToBackground = Request & { target: 'background' };
