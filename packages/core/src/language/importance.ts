/**
 * English heuristics for the base importance of a saved turn (used when the caller gives none).
 */

const SIGNAL_PATTERNS: [RegExp, number][] = [
  [/\b(remember|don't forget|do not forget|important|always|never)\b/i, 0.2],
  [/\b(my name is|i am|i'm|i live|i work|my (wife|husband|partner|son|daughter|birthday|email|phone|address))\b/i, 0.2],
  [/\b(i (like|love|hate|prefer|dislike|want|need))\b/i, 0.15],
  [/\b(deadline|meeting|appointment|tomorrow|next week|on \w+day)\b/i, 0.1],
];

/**
 * Heuristic base importance of a turn: 0.3, plus signals of durable information (self-disclosure,
 * preferences, explicit "remember", dates), plus a little for substance (length), less for a
 * question. Clamped to [0.1, 0.9]. `says`: whether the turn was read to state something about a
 * person; such a turn is no question however it ends ("I signed up for a pottery class
 * yesterday. Have you tried it?"). Unknown: a turn that ends with "?" or opens like one is one.
 */
export function estimateImportance(input: string, output = '', says?: boolean): number {
  let score = 0.3;
  for (const [re, w] of SIGNAL_PATTERNS) if (re.test(input)) score += w;
  const words = input.split(/\s+/).filter(Boolean).length;
  score += Math.min(0.1, words / 400);
  if (/^(hi|hello|hey|thanks|thank you|ok|okay|bye)[.!]*$/i.test(input.trim())) score -= 0.2;
  // A question asks for memory rather than adding to it.
  if (
    !says &&
    (/\?\s*$/.test(input) ||
      /^(what|when|where|who|whom|which|why|how|do|does|did|can|could|is|are|was|were)\b/i.test(input.trim()))
  )
    score -= 0.15;
  if (output && output.length > 400) score += 0.02;
  return Math.min(0.9, Math.max(0.1, score));
}
