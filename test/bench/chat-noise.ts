/**
 * Real-chat noise for the LoCoMo benches. LoCoMo's turns are written by a model: every sentence
 * capitalised and punctuated, every contraction spelled out. People typing in a chat app often
 * leave out the full stop, the apostrophe or the capital ("thanks mel i passed the interviews
 * last friday im so excited"); the held-out corpus of real two-person chats does (issue 28:
 * "How's it going it's pretty late already today"). These rewrites keep each turn's words and
 * its `"<speaker>: "` head and `[image: …]` caption as they are, so the same gold set still
 * scores it.
 *
 * - `punct`: no full stop or exclamation mark at a sentence's end;
 * - `qmark`: no question mark either;
 * - `apos`: no apostrophe in a contraction ("I'm" → "Im", "don't" → "dont");
 * - `lower`: everything lower case.
 */
export const NOISES = ['punct', 'qmark', 'apos', 'lower'] as const;
export type Noise = (typeof NOISES)[number];

/** `"punct,apos"`, `"all"` or `undefined` (none) as a set of noises; an unknown one throws. */
export function parseNoise(spec: string | undefined): Set<Noise> {
  if (spec === undefined || spec === '' || spec === 'none') return new Set();
  if (spec === 'all') return new Set(NOISES);
  const out = new Set<Noise>();
  for (const n of spec.split(',')) {
    if (!(NOISES as readonly string[]).includes(n))
      throw new Error(`unknown noise "${n}" (one of ${NOISES.join(', ')}, all)`);
    out.add(n as Noise);
  }
  return out;
}

/** `text` (`"<speaker>: <words> [image: …]"`) as a person in a hurry would have typed the words. */
export function chatNoise(text: string, noise: ReadonlySet<Noise>): string {
  if (noise.size === 0) return text;
  const head = /^[^:\n]{1,40}:\s/u.exec(text)?.[0] ?? '';
  // Captions stay as they are: they are written by the app, not typed.
  return (
    head +
    text.slice(head.length).replace(/(\[image:[^\]]*\])|[^[]+/gu, (words: string, caption: string | undefined) => {
      if (caption !== undefined) return words;
      let s = words;
      if (noise.has('apos')) s = s.replace(/\b(\p{L}+)['’](m|s|t|ve|re|ll|d)\b/giu, '$1$2');
      if (noise.has('punct')) s = s.replace(/[.!]+(?=["'”’)]*(?:\s|$))/gu, '');
      if (noise.has('qmark')) s = s.replace(/\?+(?=["'”’)]*(?:\s|$))/gu, '');
      if (noise.has('lower')) s = s.toLowerCase();
      return s;
    })
  );
}
