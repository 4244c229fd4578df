import { isInteraction, type ManagedContext, type MemoryEntry } from '@zerda/core';

/** Settings of an OpenAI-compatible chat endpoint. */
export interface EndpointSettings {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** Produces the assistant's reply from the built context. */
export interface Responder {
  readonly name: string;
  reply(query: string, context: ManagedContext, signal?: AbortSignal): Promise<string>;
}

/** What a memory says, in one line: the user's words for a turn, `title: text` for a fact. */
export function memorySnippet(entry: MemoryEntry, max = 160): string {
  const c = entry.content;
  const text = isInteraction(c) ? c.input : `${c.title}: ${c.text}`;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Cosine similarity below which a vector-only hit is treated as unrelated (bundled model). */
const MIN_COSINE = 0.35;

function isQuestion(entry: MemoryEntry): boolean {
  return isInteraction(entry.content) && entry.content.input.trim().endsWith('?');
}

/** A formed memory (fact, preference, event, task) links to the turns it came from. */
function isFormed(entry: MemoryEntry): boolean {
  return Array.isArray(entry.metadata.sources);
}

const SECOND_PERSON: Record<string, string> = {
  i: 'you',
  "i'm": "you're",
  'i’m': 'you’re',
  "i've": "you've",
  'i’ve': 'you’ve',
  "i'll": "you'll",
  'i’ll': 'you’ll',
  "i'd": "you'd",
  'i’d': 'you’d',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  am: 'are',
  was: 'were',
};

/**
 * What the user said, told back to them: "My sister Ana lives in Lisbon." → "your sister Ana
 * lives in Lisbon". First person becomes second person (English; other text is quoted as is).
 */
export function toldBack(text: string): string {
  let afterI = false;
  const out = text.replace(/[\p{L}'’]+/gu, (word) => {
    const lower = word.toLowerCase();
    // "am"/"was" only change after "I" ("I am" → "you are"; "the bus was late" stays).
    const swap = (lower === 'am' || lower === 'was') && !afterI ? undefined : SECOND_PERSON[lower];
    afterI = lower === 'i';
    return swap ?? word;
  });
  return out.replace(/[.!…\s]+$/u, '');
}

const GREETING = /^(hi|hello|hey|good (morning|evening|afternoon))\b/i;
const QUESTION =
  /^(what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|can|could|should|would|will|have|has|tell me|remind me|list|show me|recall)\b/i;

/** A question asks memory for something; anything else tells it something. */
function asksSomething(query: string): boolean {
  const q = query.trim();
  return q.endsWith('?') || QUESTION.test(q);
}

/**
 * A built-in responder that needs no network and no model: it answers from what memory recalled
 * for this turn, so a visitor can see recall working. It is deliberately simple and honest about
 * what it is.
 */
export function createLocalResponder(): Responder {
  return {
    name: 'local',
    async reply(query, context) {
      // Memories worth quoting: recalled with some absolute evidence (a keyword match, a cosine
      // similarity that is not noise, or a formed memory answering what the question asks of its
      // subject: reason 'slot'; or a safety fact for a food or health question: reason 'safety'),
      // and not the user's own earlier questions.
      const seen = new Set<string>();
      const recalled = context.recalled
        .filter(
          (h) =>
            (h.lexicalScore ?? 0) > 0 ||
            (h.vectorScore ?? 0) >= MIN_COSINE ||
            h.reason === 'slot' ||
            h.reason === 'safety',
        )
        .map((h) => h.entry)
        .filter((e) => {
          if (seen.has(e.id)) return false;
          seen.add(e.id);
          return true;
        })
        .filter((e) => !isQuestion(e) && memorySnippet(e, 10_000) !== query.trim());
      if (GREETING.test(query.trim())) {
        return recalled.length
          ? `Hello again! I remember ${recalled.length} thing${recalled.length === 1 ? '' : 's'} related to this, e.g. “${memorySnippet(recalled[0]!)}”.`
          : 'Hello! I am the local demo responder. Tell me about yourself and ask me later — I will recall it from memory.';
      }
      if (!asksSomething(query)) {
        // Short on purpose: the reply is stored with the turn and would otherwise blur its vector.
        // (Replies are never formed into memories, so telling it back does not echo into memory.)
        return "Noted — I'll remember that.";
      }
      if (!recalled.length) return "I don't recall anything about that yet. Tell me something and ask me again later.";
      // The best relevant memory (recall already folded a formed memory and its turn into one).
      const best = recalled[0]!;
      const others = recalled.filter((e) => e !== best).length;
      const more = others ? ` (I recall ${others} more related memor${others === 1 ? 'y' : 'ies'}.)` : '';
      // A memory added by hand (a title and a text) is quoted; what the user said is told back.
      if (!isInteraction(best.content) && !isFormed(best)) return `I remember: ${memorySnippet(best)}.${more}`;
      const said = isInteraction(best.content) ? best.content.input : best.content.text;
      return `You told me ${toldBack(said.replace(/\s+/g, ' ').trim())}.${more}`;
    },
  };
}

/** A responder that sends the built context's messages to an OpenAI-compatible `/chat/completions`. */
export function createEndpointResponder(settings: EndpointSettings): Responder {
  const base = settings.baseUrl.replace(/\/+$/, '');
  return {
    name: 'endpoint',
    async reply(_query, context, signal) {
      if (!base)
        throw new Error('No endpoint set: enter its base URL under Responder, or pick the built-in local responder.');
      const response = await fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: settings.model, messages: context.messages }),
        ...(signal ? { signal } : {}),
      }).catch((err: unknown) => {
        // The browser says only "Failed to fetch"; name the likely causes.
        throw new Error(
          `Could not reach ${base} (${err instanceof Error ? err.message : String(err)}): is it running, and does it allow requests from this page (CORS)?`,
        );
      });
      if (!response.ok) throw new Error(`Endpoint answered ${response.status} ${response.statusText}`);
      const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new Error('Endpoint reply has no choices[0].message.content');
      return content;
    },
  };
}
