import { ZerdaError, invalid, isZerdaError } from '../model/errors.js';
import { checkOptionKeys } from '../model/options.js';

/**
 * Symmetric authenticated encryption for data at rest (AES-GCM-256 through WebCrypto).
 *
 * Every output is a self-describing envelope, so a reader that only knows the passphrase can
 * decrypt it:
 *
 * ```
 * offset size  field
 * 0      4     magic "ZRD1"
 * 4      1     format version (1)
 * 5      1     key source: 1 = PBKDF2-SHA256 from a passphrase, 0 = caller-supplied CryptoKey
 * 6      4     PBKDF2 iterations, uint32 big-endian (0 for a supplied key)
 * 10     16    PBKDF2 salt (zeros for a supplied key)
 * 26     12    AES-GCM IV (random per message)
 * 38     n+16  ciphertext followed by the 16-byte GCM tag
 * ```
 *
 * The 38-byte header is bound as additional authenticated data, so changing any header byte
 * (iterations, salt, IV) makes decryption fail just like changing the ciphertext does.
 */
export interface Cipher {
  /** Identifies the encryption key of this instance (never secret material). See {@link createCipher}. */
  readonly keyId: string;
  /**
   * Encrypt bytes into an envelope. `associatedData` (optional) is authenticated but not stored:
   * decryption needs the same bytes, so an envelope cannot be moved to another context (another
   * record id, another tenant) without failing.
   */
  encrypt(plaintext: Uint8Array, associatedData?: Uint8Array): Promise<Uint8Array>;
  /** Decrypt an envelope. Wrong key, wrong associated data, truncated or tampered data -> `DECRYPTION`. */
  decrypt(envelope: Uint8Array, associatedData?: Uint8Array): Promise<Uint8Array>;
  /** Encrypt a string (UTF-8). */
  encryptText(text: string, associatedData?: Uint8Array): Promise<Uint8Array>;
  /** Decrypt an envelope made by {@link Cipher.encryptText}. */
  decryptText(envelope: Uint8Array, associatedData?: Uint8Array): Promise<string>;
  /** Encrypt a JSON-serialisable value. */
  encryptJson(value: unknown, associatedData?: Uint8Array): Promise<Uint8Array>;
  /** Decrypt an envelope made by {@link Cipher.encryptJson}. */
  decryptJson<T = unknown>(envelope: Uint8Array, associatedData?: Uint8Array): Promise<T>;
}

/** Options for a passphrase-based cipher. */
export interface PassphraseCipherOptions {
  /** Non-empty passphrase. It is NFC-normalised, so the same text typed on any platform gives the same key. */
  passphrase: string;
  /** PBKDF2-SHA256 iterations for new envelopes. Default {@link DEFAULT_PBKDF2_ITERATIONS}. */
  iterations?: number;
  /**
   * Allow fewer than {@link MIN_PBKDF2_ITERATIONS} iterations. Only for tests, where the default
   * cost would make every test slow; never in production.
   */
  allowWeakIterations?: boolean;
}

/** Options for a cipher over a caller-supplied AES-GCM key. */
export interface KeyCipherOptions {
  /** An AES-GCM key with `encrypt` and `decrypt` usages (e.g. from `crypto.subtle.generateKey`). */
  key: CryptoKey;
  /** Name reported as `keyId` (`key:<keyId>`). Default `"default"`. */
  keyId?: string;
}

/** Default PBKDF2 iterations (OWASP 2023 recommendation for PBKDF2-HMAC-SHA256). */
export const DEFAULT_PBKDF2_ITERATIONS = 600_000;
/** Fewest iterations accepted without `allowWeakIterations`. */
export const MIN_PBKDF2_ITERATIONS = 100_000;
/** Most iterations accepted, also when reading an envelope (a tampered header must not hang the reader). */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;

const MAGIC = [0x5a, 0x52, 0x44, 0x31]; // "ZRD1"
const VERSION = 1;
const KDF_KEY = 0;
const KDF_PBKDF2 = 1;
const SALT_LEN = 16;
const IV_LEN = 12;
const TAG_LEN = 16;
const HEADER_LEN = 4 + 1 + 1 + 4 + SALT_LEN + IV_LEN;
const MAX_CACHED_KEYS = 32;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new ZerdaError('UNSUPPORTED', 'WebCrypto (globalThis.crypto.subtle) is not available in this runtime');
  return s;
}

function fail(message: string, cause?: unknown): ZerdaError {
  return new ZerdaError('DECRYPTION', message, cause === undefined ? {} : { cause });
}

function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

type Bytes = Uint8Array<ArrayBuffer>;

interface Header {
  kdf: number;
  iterations: number;
  salt: Bytes;
  iv: Bytes;
}

function checkAssociated(data: unknown): void {
  if (data !== undefined && !(data instanceof Uint8Array)) invalid('associatedData', 'a Uint8Array', data);
}

/** The header, followed by the caller's associated data when given (both authenticated). */
function withAssociated(header: Uint8Array, associated: Uint8Array | undefined): Bytes {
  if (!associated || associated.length === 0) return own(header);
  const out = new Uint8Array(header.length + associated.length);
  out.set(header, 0);
  out.set(associated, header.length);
  return out;
}

/** WebCrypto rejects views over a SharedArrayBuffer; copy those (and only those). */
function own(bytes: Uint8Array): Bytes {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Bytes) : new Uint8Array(bytes);
}

function writeHeader(h: Header): Bytes {
  const out = new Uint8Array(HEADER_LEN);
  out.set(MAGIC, 0);
  out[4] = VERSION;
  out[5] = h.kdf;
  new DataView(out.buffer).setUint32(6, h.iterations, false);
  out.set(h.salt, 10);
  out.set(h.iv, 10 + SALT_LEN);
  return out;
}

function readHeader(data: Bytes): Header {
  if (data.length < HEADER_LEN + TAG_LEN) throw fail(`Cannot decrypt: envelope too short (${data.length} bytes)`);
  for (let i = 0; i < MAGIC.length; i++)
    if (data[i] !== MAGIC[i]) throw fail('Cannot decrypt: not a Zerda envelope (bad magic)');
  if (data[4] !== VERSION) throw fail(`Cannot decrypt: unsupported envelope version ${data[4]}`);
  const kdf = data[5]!;
  if (kdf !== KDF_KEY && kdf !== KDF_PBKDF2) throw fail(`Cannot decrypt: unknown key source ${kdf}`);
  const iterations = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(6, false);
  if (kdf === KDF_PBKDF2 && (iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS))
    throw fail(`Cannot decrypt: implausible PBKDF2 iteration count ${iterations}`);
  return {
    kdf,
    iterations,
    salt: data.slice(10, 10 + SALT_LEN),
    iv: data.slice(10 + SALT_LEN, HEADER_LEN),
  };
}

/** Where keys come from: derived from a passphrase per (salt, iterations), or one fixed key. */
interface KeySource {
  kdf: number;
  keyId: string;
  /** Header fields (except IV) for new envelopes, and the key to encrypt with. */
  forEncrypt(): Promise<{ iterations: number; salt: Bytes; key: CryptoKey }>;
  /** The key for an envelope with this header. */
  forDecrypt(h: Header): Promise<CryptoKey>;
}

function passphraseSource(opts: PassphraseCipherOptions): KeySource {
  const { passphrase } = opts;
  if (typeof passphrase !== 'string' || passphrase.length === 0)
    invalid('passphrase', 'a non-empty string', passphrase);
  const iterations = opts.iterations ?? DEFAULT_PBKDF2_ITERATIONS;
  const min = opts.allowWeakIterations === true ? 1 : MIN_PBKDF2_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < min || iterations > MAX_PBKDF2_ITERATIONS)
    invalid(
      'iterations',
      `an integer in [${min}, ${MAX_PBKDF2_ITERATIONS}]${min > 1 ? ' (set allowWeakIterations for tests)' : ''}`,
      iterations,
    );
  const secret = new TextEncoder().encode(passphrase.normalize('NFC'));
  // One random salt per cipher instance: deriving a key costs `iterations` hashes, so a fresh
  // salt per message would make every write take hundreds of milliseconds. The IV is per message.
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_LEN));
  const cache = new Map<string, Promise<CryptoKey>>();
  let baseKey: Promise<CryptoKey> | undefined;

  const derive = (s: Bytes, iters: number): Promise<CryptoKey> => {
    const id = `${iters}:${toHex(s)}`;
    const hit = cache.get(id);
    if (hit) {
      cache.delete(id);
      cache.set(id, hit);
      return hit;
    }
    baseKey ??= subtle().importKey('raw', secret, 'PBKDF2', false, ['deriveKey']);
    const p = baseKey.then((base) =>
      subtle().deriveKey(
        { name: 'PBKDF2', hash: 'SHA-256', salt: s, iterations: iters },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      ),
    );
    p.catch(() => cache.delete(id));
    cache.set(id, p);
    if (cache.size > MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!);
    return p;
  };

  return {
    kdf: KDF_PBKDF2,
    keyId: `pbkdf2-sha256:${iterations}:${toHex(salt)}`,
    async forEncrypt() {
      return { iterations, salt, key: await derive(salt, iterations) };
    },
    async forDecrypt(h) {
      return derive(h.salt, h.iterations);
    },
  };
}

function keySource(opts: KeyCipherOptions): KeySource {
  const { key } = opts;
  const alg = (key as Partial<CryptoKey> | undefined)?.algorithm as { name?: string; length?: number } | undefined;
  if (typeof key !== 'object' || key === null || alg?.name !== 'AES-GCM') invalid('key', 'an AES-GCM CryptoKey', key);
  if (!key.usages.includes('encrypt') || !key.usages.includes('decrypt'))
    invalid('key.usages', 'to include "encrypt" and "decrypt"', key.usages.join(','));
  const name = opts.keyId ?? 'default';
  if (typeof name !== 'string' || name === '') invalid('keyId', 'a non-empty string', name);
  const zeros = new Uint8Array(SALT_LEN);
  return {
    kdf: KDF_KEY,
    keyId: `key:${name}`,
    async forEncrypt() {
      return { iterations: 0, salt: zeros, key };
    },
    async forDecrypt() {
      return key;
    },
  };
}

class AesGcmCipher implements Cipher {
  #source: KeySource;

  constructor(source: KeySource) {
    this.#source = source;
  }

  get keyId(): string {
    return this.#source.keyId;
  }

  async encrypt(plaintext: Uint8Array, associatedData?: Uint8Array): Promise<Uint8Array> {
    if (!(plaintext instanceof Uint8Array)) invalid('plaintext', 'a Uint8Array', plaintext);
    checkAssociated(associatedData);
    const { iterations, salt, key } = await this.#source.forEncrypt();
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_LEN));
    const header = writeHeader({ kdf: this.#source.kdf, iterations, salt, iv });
    const sealed = new Uint8Array(
      await subtle().encrypt(
        { name: 'AES-GCM', iv, additionalData: withAssociated(header, associatedData), tagLength: 128 },
        key,
        own(plaintext),
      ),
    );
    const out = new Uint8Array(HEADER_LEN + sealed.length);
    out.set(header, 0);
    out.set(sealed, HEADER_LEN);
    return out;
  }

  async decrypt(envelope: Uint8Array, associatedData?: Uint8Array): Promise<Uint8Array> {
    if (!(envelope instanceof Uint8Array)) invalid('envelope', 'a Uint8Array', envelope);
    checkAssociated(associatedData);
    const data = own(envelope);
    const h = readHeader(data);
    if (h.kdf !== this.#source.kdf)
      throw fail(
        h.kdf === KDF_PBKDF2
          ? 'Cannot decrypt: data was encrypted with a passphrase, this cipher holds a key'
          : 'Cannot decrypt: data was encrypted with a supplied key, this cipher holds a passphrase',
      );
    try {
      const key = await this.#source.forDecrypt(h);
      const plain = await subtle().decrypt(
        {
          name: 'AES-GCM',
          iv: h.iv,
          additionalData: withAssociated(data.subarray(0, HEADER_LEN), associatedData),
          tagLength: 128,
        },
        key,
        data.subarray(HEADER_LEN),
      );
      return new Uint8Array(plain);
    } catch (e) {
      if (isZerdaError(e)) throw e;
      throw fail('Cannot decrypt: wrong passphrase or key, or the data was modified', e);
    }
  }

  async encryptText(text: string, associatedData?: Uint8Array): Promise<Uint8Array> {
    if (typeof text !== 'string') invalid('text', 'a string', text);
    return this.encrypt(new TextEncoder().encode(text), associatedData);
  }

  async decryptText(envelope: Uint8Array, associatedData?: Uint8Array): Promise<string> {
    const bytes = await this.decrypt(envelope, associatedData);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (e) {
      throw fail('Decrypted data is not valid UTF-8 text', e);
    }
  }

  async encryptJson(value: unknown, associatedData?: Uint8Array): Promise<Uint8Array> {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (e) {
      invalid('value', 'a JSON-serialisable value', e instanceof Error ? e.message : value);
    }
    if (json === undefined) invalid('value', 'a JSON-serialisable value', typeof value);
    return this.encryptText(json, associatedData);
  }

  async decryptJson<T = unknown>(envelope: Uint8Array, associatedData?: Uint8Array): Promise<T> {
    const text = await this.decryptText(envelope, associatedData);
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      throw fail('Decrypted data is not valid JSON', e);
    }
  }
}

/**
 * Create a {@link Cipher}.
 *
 * - `{ passphrase, iterations? }`: keys are derived with PBKDF2-SHA256 (default 600,000
 *   iterations). The instance picks one random 16-byte salt for everything it encrypts; to
 *   decrypt it reads salt and iterations from the envelope, so envelopes from other instances
 *   (other salts, other iteration counts) decrypt too. Derived keys are cached per
 *   (salt, iterations). `keyId` is `pbkdf2-sha256:<iterations>:<salt hex>`.
 * - `{ key }`: a caller-supplied AES-GCM `CryptoKey`; `keyId` is `key:<options.keyId ?? "default">`.
 *
 * Empty passphrase, out-of-range iterations or an unusable key throw `VALIDATION` at once.
 * Fewer than 100,000 iterations need `allowWeakIterations: true` (tests only).
 */
export function createCipher(options: PassphraseCipherOptions | KeyCipherOptions): Cipher {
  if (typeof options !== 'object' || options === null) invalid('options', 'an object with passphrase or key', options);
  const hasKey = 'key' in options && options.key !== undefined;
  const hasPass = 'passphrase' in options && options.passphrase !== undefined;
  if (hasKey === hasPass) invalid('options', 'exactly one of passphrase or key');
  const allowed = hasKey ? ['key', 'keyId'] : ['passphrase', 'iterations', 'allowWeakIterations'];
  // A typo such as `iteration` must not silently fall back to the default cost.
  checkOptionKeys(options, allowed, 'options');
  subtle();
  return new AesGcmCipher(
    hasKey ? keySource(options as KeyCipherOptions) : passphraseSource(options as PassphraseCipherOptions),
  );
}
