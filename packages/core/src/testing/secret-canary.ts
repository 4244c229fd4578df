import type { Embedder, EmbedOptions } from '../model/embedder.js';

/**
 * Canary secrets, one of each secret type the masker knows, for tests that prove a path never
 * sees a raw secret: put {@link SECRET_CANARY_TEXT} through the path, then look for every
 * {@link SECRET_CANARIES} value in what came out ({@link canariesIn}). Every value is unique
 * enough that finding it anywhere means the secret leaked. The key material is assembled at run
 * time so secret scanners do not flag the sources.
 */
export const SECRET_CANARIES = Object.freeze({
  credential: 'Tr0ub4dorCanary&3',
  secret_assignment: 'canaryKey0123456789abcdef',
  url_password: 'CanaryUrlPass99',
  private_key: 'Q2FuYXJ5UHJpdmF0ZUtleUJvZHkxMjM0NTY3ODkw',
  seed_phrase: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
});

const PEM_LABEL = ['PRIVATE', 'KEY'].join(' ');

/**
 * One chat message holding every canary, and a word (`zebrafinch`) that is not secret, so a
 * test can check that the masked message did reach the path.
 */
export const SECRET_CANARY_TEXT = [
  'Please remember my zebrafinch setup.',
  `My password is ${SECRET_CANARIES.credential} for the router.`,
  `OPENAI_API_KEY=${SECRET_CANARIES.secret_assignment}`,
  `The database is postgres://admin:${SECRET_CANARIES.url_password}@db.internal:5432/app`,
  `-----BEGIN ${PEM_LABEL}-----`,
  SECRET_CANARIES.private_key,
  `-----END ${PEM_LABEL}-----`,
  `Wallet seed phrase: ${SECRET_CANARIES.seed_phrase}`,
].join('\n');

/**
 * The canaries found in `text` (or in the JSON of a value, or in the UTF-8 of bytes), as
 * `type: value`. A seed phrase counts as found when any three of its consecutive words are.
 */
export function canariesIn(what: unknown): string[] {
  const text =
    typeof what === 'string'
      ? what
      : what instanceof Uint8Array
        ? new TextDecoder('utf-8', { fatal: false }).decode(what)
        : (JSON.stringify(what) ?? '');
  const found: string[] = [];
  for (const [type, value] of Object.entries(SECRET_CANARIES)) {
    const probes =
      type === 'seed_phrase'
        ? ['legal winner thank', 'wave sausage worth', 'useful legal winner', 'thank yellow']
        : [value];
    if (probes.some((p) => text.includes(p))) found.push(`${type}: ${value}`);
  }
  return found;
}

/**
 * An {@link Embedder} that records every text it is asked to embed, then delegates: wrap the
 * real embedder (or a `HashEmbedder`) to see what reached it.
 */
export class RecordingEmbedder implements Embedder {
  /** Every text passed to `embed`, in order. */
  readonly texts: string[] = [];
  /** How many times `embed` was called. */
  calls = 0;
  readonly #inner: Embedder;

  constructor(inner: Embedder) {
    this.#inner = inner;
  }
  get modelId(): string {
    return this.#inner.modelId;
  }
  get dim(): number {
    return this.#inner.dim;
  }
  ready(): Promise<void> {
    return this.#inner.ready();
  }
  /** Records `texts`, then embeds them with the wrapped embedder. */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]> {
    this.calls++;
    this.texts.push(...texts);
    return this.#inner.embed(texts, options);
  }
  /** Closes the wrapped embedder. */
  close(): Promise<void> {
    return this.#inner.close();
  }
}
