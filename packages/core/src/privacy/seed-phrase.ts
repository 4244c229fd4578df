import { BIP39_ENGLISH } from './bip39-english.js';

/** A span of text (UTF-16 offsets, end exclusive). */
export interface Span {
  start: number;
  end: number;
}

const WORD_INDEX: ReadonlyMap<string, number> = new Map(BIP39_ENGLISH.map((w, i) => [w, i]));

/** Phrase lengths BIP-39 defines (128..256 bits of entropy). */
const PHRASE_LENGTHS = [24, 21, 18, 15, 12] as const;
const MIN_WORDS = 12;
/** Longer runs are not searched for checksum windows (each window costs a SHA-256). */
const MAX_CHECKED_RUN = 64;
/** Between two words of a phrase: spaces, line breaks, commas and list numbering ("1. abandon 2. ability"). */
const GAP = /^(?:[\s,;|·•-]|\d{1,2}[.):]?)+$/;
/** "-----BEGIN" after a phrase starts something else. */
function gapBetweenWords(gap: string): boolean {
  return gap.length <= 12 && GAP.test(gap) && !gap.includes('--');
}
/** Words that announce a phrase; used only when no window of a run has a valid checksum. */
const CONTEXT =
  /\b(?:seed|mnemonic|recovery|wallet|metamask|ledger|trezor|semilla|monedero|cartera|r[ée]cup[ée]ration|portefeuille|wiederherstellung|recupera[çc][ãa]o|carteira)/i;
/** Leading words of a run that belong to the sentence announcing it ("seed phrase abandon …"). */
const LEAD_INS = new Set(['seed', 'phrase', 'secret', 'word', 'key', 'recovery', 'backup', 'wallet']);

/**
 * Find BIP-39 seed phrases: runs of at least 12 consecutive words of the English list (lower,
 * Title or UPPER case), separated by spaces, line breaks, commas or list numbering. A run is a
 * phrase when a window of 12/15/18/21/24 of its words has a valid BIP-39 checksum (a run of
 * everyday words passes that by chance about once in 16 for 12 words) or, failing that (a typo,
 * a partial phrase), when the 120 characters before it speak of a seed, mnemonic, recovery
 * phrase or wallet (runs over 64 words are judged by that alone). The whole run is masked, less
 * leading words such as "seed phrase".
 */
export function findSeedPhrases(text: string): Span[] {
  const out: Span[] = [];
  // Most text has no run of 12 short words at all: find the candidate regions first.
  CANDIDATE_RUN.lastIndex = 0;
  for (let c = CANDIDATE_RUN.exec(text); c; c = CANDIDATE_RUN.exec(text))
    out.push(...phrasesIn(text, c.index, c.index + c[0].length));
  return out;
}

/** 12+ words of 3–8 letters (the list's lengths) with gaps that {@link GAP} may accept. */
const CANDIDATE_RUN =
  /(?<![A-Za-z])[A-Za-z]{3,8}(?:(?:[\s,;|·•-]|\d{1,2}(?!\d)[.):]?){1,12}[A-Za-z]{3,8}(?![A-Za-z])){11,}/g;

function phrasesIn(text: string, from: number, to: number): Span[] {
  const out: Span[] = [];
  let run: { start: number; end: number; index: number }[] = [];
  const flush = () => {
    if (run.length >= MIN_WORDS) {
      const span = phraseIn(text, run);
      if (span) out.push(span);
    }
    run = [];
  };
  const re = /[A-Za-z]+/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const word = m[0];
    const lower = word.toLowerCase();
    const cased = word === lower || word === word.toUpperCase() || word.slice(1) === lower.slice(1);
    const index = cased ? WORD_INDEX.get(lower) : undefined;
    const prev = run[run.length - 1];
    if (index === undefined) {
      flush();
      continue;
    }
    if (prev && !gapBetweenWords(text.slice(prev.end, m.index))) flush();
    run.push({ start: m.index, end: m.index + word.length, index });
  }
  flush();
  return out;
}

function phraseIn(text: string, run: { start: number; end: number; index: number }[]): Span | undefined {
  // Leading words that announce the phrase ("seed phrase abandon …") are not part of it.
  let first = 0;
  while (run.length - first > MIN_WORDS && LEAD_INS.has(BIP39_ENGLISH[run[first]!.index]!)) first++;
  const words = run.slice(first);
  if (!hasCheckedWindow(words) && !CONTEXT.test(text.slice(Math.max(0, run[0]!.start - 120), run[0]!.start)))
    return undefined;
  // The whole run is masked: a phrase with a typo next to a valid window must not stay half visible.
  return { start: words[0]!.start, end: words[words.length - 1]!.end };
}

/** Whether a window of a BIP-39 length has a valid checksum. */
function hasCheckedWindow(run: { index: number }[]): boolean {
  if (run.length > MAX_CHECKED_RUN) return false;
  for (const len of PHRASE_LENGTHS) {
    for (let i = 0; i + len <= run.length; i++)
      if (checksumValid(run.slice(i, i + len).map((w) => w.index))) return true;
  }
  return false;
}

/** BIP-39: the last `words / 3` bits are the first bits of SHA-256 of the entropy before them. */
function checksumValid(indices: number[]): boolean {
  const bits = indices.length * 11;
  const checksumBits = indices.length / 3;
  const entropyBytes = (bits - checksumBits) / 8;
  const bytes = new Uint8Array(entropyBytes + 1);
  let acc = 0;
  let accBits = 0;
  let pos = 0;
  for (const idx of indices) {
    acc = (acc << 11) | idx;
    accBits += 11;
    while (accBits >= 8) {
      accBits -= 8;
      bytes[pos++] = (acc >>> accBits) & 0xff;
      acc &= (1 << accBits) - 1;
    }
  }
  // What is left is the tail of the checksum: the final byte holds its first 8 - accBits bits.
  const checksum = ((pos > entropyBytes ? bytes[entropyBytes]! << accBits : 0) | acc) >>> 0;
  const digest = sha256(bytes.subarray(0, entropyBytes));
  return digest[0]! >>> (8 - checksumBits) === checksum;
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/**
 * SHA-256 of a short message, synchronously: masking is synchronous and WebCrypto's digest is
 * not. Tested against WebCrypto.
 */
export function sha256(message: Uint8Array): Uint8Array {
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const bitLength = message.length * 8;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(b * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, bb, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + bb;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}
