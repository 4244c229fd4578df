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

function isQuestion(entry: MemoryEntry): boolean {
  return isInteraction(entry.content) && entry.content.input.trim().endsWith('?');
}

/** A formed memory (fact, preference, event, task) links to the turns it came from. */
function isFormed(entry: MemoryEntry): boolean {
  return Array.isArray(entry.metadata.sources);
}

// First person becomes second and second becomes first: the user's words, told back.
const SWAP: Record<string, string> = {
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
  your: 'my',
  yours: 'mine',
  yourself: 'myself',
  "you're": "I'm",
  'you’re': 'I’m',
  "you've": "I've",
  'you’ve': 'I’ve',
  "you'll": "I'll",
  'you’ll': 'I’ll',
  "you'd": "I'd",
  'you’d': 'I’d',
};

/** Words after which "you" is an object ("email me" → "email you"; "call you at" → "call me at"). */
const OBJECT_CONTEXT =
  /^(?:to|at|for|with|from|about|of|on|by|than|call|email|e-mail|text|tell|told|give|gave|send|sent|show|ask|asked|help|thank|thanks|meet|see|let|remind|love|like|miss|know|need|want|ping|message|phone|ring)$/;

/**
 * What the user said, told back to them: "My sister Ana lives in Lisbon." → "your sister Ana
 * lives in Lisbon"; "You can email me at …" → "I can email you at …". First and second person
 * swap (English; other text is quoted as is); "am"/"are" and "was"/"were" follow the swapped
 * subject; a swapped pronoun at the start is not capitalised mid-sentence ("I" stays "I").
 */
export function toldBack(text: string): string {
  let previous = '';
  let subject = '';
  const out = text.replace(/[\p{L}'’]+/gu, (word) => {
    const lower = word.toLowerCase();
    let swap: string | undefined;
    if (lower === 'you') swap = OBJECT_CONTEXT.test(previous) ? 'me' : 'I';
    else if (lower === 'am' && subject === 'i') swap = 'are';
    else if (lower === 'are' && subject === 'you') swap = 'am';
    else if (lower === 'was' && subject === 'i') swap = 'were';
    else if (lower === 'were' && subject === 'you') swap = 'was';
    else swap = SWAP[lower];
    subject = lower === 'i' || lower === 'you' ? lower : '';
    previous = lower;
    // Swapped pronouns are lowercase ("You can" → "I can", "My sister" → "your sister"), except "I".
    return swap ?? word;
  });
  // Quoted mid-sentence: a sentence's capital goes ("Call me …" → "call you …"), a name's stays.
  return out.replace(/[.!…\s]+$/u, '').replace(LOWER_FIRST, (w) => w.toLowerCase());
}

const LOWER_FIRST =
  /^(?:Call|Email|E-mail|Text|Ring|Phone|Message|Please|Remind|The|A|An|It|It's|This|That|There|We|Our|They|He|She|His|Her|Its|Just|Also)\b/u;

/** What a masked value's placeholder stands for ("[EMAIL_1]" → "an email address"). */
const MASKED_AS: Record<string, string> = {
  EMAIL: 'an email address',
  PHONE: 'a phone number',
  CREDIT_CARD: 'a card number',
  IBAN: 'an IBAN',
  IP_ADDRESS: 'an IP address',
  STREET_ADDRESS: 'a street address',
  API_KEY: 'an API key',
  CREDENTIAL: 'a password',
  SECRET_ASSIGNMENT: 'a secret',
  URL_PASSWORD: 'a password',
  PRIVATE_KEY: 'a private key',
  SEED_PHRASE: 'a wallet seed phrase',
};

/** A sentence saying which values in `text` were masked before storing, or '' when none was. */
export function maskedNote(text: string): string {
  const kinds = [
    ...new Set([...text.matchAll(/\[([A-Z][A-Z0-9_]*?)_\d+\]/g)].map((m) => MASKED_AS[m[1]!] ?? 'a personal detail')),
  ];
  if (!kinds.length) return '';
  const list = kinds.length === 1 ? kinds[0]! : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
  return ` You gave me ${list} there; it was masked before storing, so I never kept it (${kinds.length === 1 ? 'the placeholder stands in for it' : 'placeholders stand in for them'}).`;
}

const GREETING = /^(hi|hello|hey|good (morning|evening|afternoon))\b/i;
const QUESTION =
  /^(what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|can|could|should|would|will|have|has|tell me|remind me|list|show me|recall)\b/i;

/** A question asks memory for something; anything else tells it something. */
export function asksSomething(query: string): boolean {
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
      // Memories worth quoting: what recall returned, but not the user's own earlier questions.
      // Every memory recall returned passed its relevance gate (the rule the Recall tab shows too).
      const seen = new Set<string>();
      const recalled = context.recalled
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
      if (!isInteraction(best.content) && !isFormed(best))
        return `I remember: ${memorySnippet(best)}.${maskedNote(memorySnippet(best, 10_000))}${more}`;
      const said = (isInteraction(best.content) ? best.content.input : best.content.text).replace(/\s+/g, ' ').trim();
      return `You told me ${toldBack(said)}.${maskedNote(said)}${more}`;
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
