import { invalid } from '../model/errors.js';
import { findCredentials, findPrivateKeys, findSecretAssignments, findUrlPasswords } from './secret-detectors.js';
import { findSeedPhrases, type Span } from './seed-phrase.js';

/** Built-in PII types. */
export type BuiltinPiiType =
  | 'email'
  | 'phone'
  | 'credit_card'
  | 'iban'
  | 'ip_address'
  | 'street_address'
  | 'api_key'
  | 'credential'
  | 'secret_assignment'
  | 'url_password'
  | 'private_key'
  | 'seed_phrase';
/** A PII type: a built-in one or the `type` of a custom pattern. */
export type PiiType = BuiltinPiiType | (string & {});

/** All built-in types, in the order they are documented. */
export const PII_TYPES: readonly BuiltinPiiType[] = Object.freeze([
  'email',
  'phone',
  'credit_card',
  'iban',
  'ip_address',
  'street_address',
  'api_key',
  'credential',
  'secret_assignment',
  'url_password',
  'private_key',
  'seed_phrase',
] as const);

/** One masked span. */
export interface PiiFinding {
  type: PiiType;
  /** The original text that was masked. */
  value: string;
  /** Start offset (UTF-16 code units) in the *input* text. */
  start: number;
  /** End offset (exclusive) in the input text. */
  end: number;
  /** The placeholder written in its place, e.g. `[EMAIL_1]`. */
  replacement: string;
}

/** The result of {@link PiiMasker.mask}. */
export interface MaskResult {
  /** The input with every finding replaced by its placeholder. */
  text: string;
  /** Findings in input order (non-overlapping). */
  findings: PiiFinding[];
}

/** A caller-defined detector. */
export interface CustomPiiPattern {
  /** Type reported in findings and used for the placeholder (`[EMPLOYEE_ID_1]`). */
  type: string;
  /**
   * What to find. Flags are kept (a `g` flag is added). When the pattern has a named group
   * `value`, only that group is masked (e.g. the secret after `key=`).
   */
  pattern: RegExp;
  /** Optional extra check on the matched value; return false to ignore a match. */
  validate?: (value: string) => boolean;
  /** Overlap priority; higher wins. Default 100, above every built-in detector. */
  priority?: number;
}

/** Options for {@link PiiMasker}. */
export interface PiiMaskerOptions {
  /** Built-in types to detect. Default: all of {@link PII_TYPES}. Custom types are always on. */
  types?: readonly PiiType[];
  /** Extra detectors. */
  custom?: readonly CustomPiiPattern[];
  /** Placeholder for the `n`-th distinct value of a type (1-based). Default `[TYPE_n]`. */
  placeholder?: (type: PiiType, n: number) => string;
}

interface Detector {
  type: PiiType;
  /** Higher wins when matches overlap; see {@link PiiMasker}. */
  priority: number;
  /** The spans to mask (absolute offsets, possibly overlapping each other). */
  find(text: string): Span[];
}

/** A detector over a global regex: `accept` turns one match into the span to mask, or nothing. */
function regexDetector(
  type: PiiType,
  priority: number,
  regex: RegExp,
  accept: (m: RegExpExecArray) => Span | undefined,
): Detector {
  return {
    type,
    priority,
    find(text) {
      const spans: Span[] = [];
      regex.lastIndex = 0;
      for (let m = regex.exec(text); m; m = regex.exec(text)) {
        if (m[0].length === 0) {
          regex.lastIndex++;
          continue;
        }
        const span = accept(m);
        if (span) spans.push(span);
      }
      return spans;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Validators

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** IBAN lengths per country (ISO 13616 registry). Countries not listed accept 15..34. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

function ibanMod97(compact: string): boolean {
  const s = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    const v = code >= 65 ? code - 55 : code - 48;
    rem = v >= 10 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return rem === 1;
}

function isIpv4(s: string): boolean {
  const parts = s.split('.');
  return (
    parts.length === 4 &&
    parts.every((p) => /^\d{1,3}$/.test(p) && (p === '0' || !p.startsWith('0')) && Number(p) <= 255)
  );
}

function isIpv6(s: string): boolean {
  let body = s;
  let groups = 8;
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (v4) {
    if (!isIpv4(v4[1]!)) return false;
    body = s.slice(0, s.length - v4[1]!.length);
    if (!body.endsWith(':')) return false;
    if (!body.endsWith('::')) body = body.slice(0, -1);
    groups = 6;
  }
  const hex = /^[0-9A-Fa-f]{1,4}$/;
  const split = (p: string): string[] => (p === '' ? [] : p.split(':'));
  const halves = body.split('::');
  if (halves.length > 2) return false;
  if (halves.length === 2) {
    const all = [...split(halves[0]!), ...split(halves[1]!)];
    if (all.length === 0 && !v4) return false; // a bare "::" says nothing
    return all.every((g) => hex.test(g)) && all.length <= groups - 1;
  }
  const all = split(body);
  return all.length === groups && all.every((g) => hex.test(g));
}

function isJwtHeader(segment: string): boolean {
  try {
    const b64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    const json: unknown = JSON.parse(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)));
    return typeof json === 'object' && json !== null && !Array.isArray(json);
  } catch {
    return false;
  }
}

const NANP = /^(?:1[ .-]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])\d{3}[ .-]\d{4}$/;

function isPhone(raw: string): boolean {
  const digits = raw.replace(/\D/g, '').length;
  if (raw.startsWith('+')) return digits >= 8 && digits <= 15 && raw[1] !== '0';
  if (raw.startsWith('00')) return digits >= 10 && digits <= 17 && /[ .()-]/.test(raw);
  if (NANP.test(raw)) return true;
  // National format with a trunk prefix ("030 1234567", "(0171) 123 4567", "06 12 34 56 78"):
  // plain digit runs without separators are too often order numbers or ids to call them phones.
  const national = raw.startsWith('0') || raw.startsWith('(0');
  return national && digits >= 9 && digits <= 12 && /[ ./()-]/.test(raw);
}

// ---------------------------------------------------------------------------------------------
// Detectors

function whole(m: RegExpExecArray) {
  return { start: m.index, end: m.index + m[0].length };
}

function valueGroup(m: RegExpExecArray) {
  const span = m.indices?.groups?.value;
  return span ? { start: span[0], end: span[1] } : whole(m);
}

function cardSpan(m: RegExpExecArray): { start: number; end: number } | undefined {
  // The candidate may run into neighbouring numbers ("card 4111 1111 1111 1111 exp 12 30" does
  // not, "4111 1111 1111 1111 2025" does): try every run of whole groups, longest first.
  const groups: { start: number; end: number }[] = [];
  const re = /\d+/g;
  for (let g = re.exec(m[0]); g; g = re.exec(m[0]))
    groups.push({ start: m.index + g.index, end: m.index + g.index + g[0].length });
  let best: { start: number; end: number; len: number } | undefined;
  for (let i = 0; i < groups.length; i++) {
    let digits = '';
    for (let j = i; j < groups.length; j++) {
      digits += m.input.slice(groups[j]!.start, groups[j]!.end);
      if (digits.length > 19) break;
      if (digits.length < 13 || !/^[2-6]/.test(digits) || /^(\d)\1+$/.test(digits) || !luhn(digits)) continue;
      if (!best || digits.length > best.len)
        best = { start: groups[i]!.start, end: groups[j]!.end, len: digits.length };
    }
  }
  return best && { start: best.start, end: best.end };
}

function ibanSpan(m: RegExpExecArray): { start: number; end: number } | undefined {
  const text = m[0];
  const expected = IBAN_LENGTHS[text.slice(0, 2)];
  const compactAll = text.replace(/ /g, '');
  const lengths = expected !== undefined ? [expected] : [];
  if (expected === undefined) for (let n = Math.min(34, compactAll.length); n >= 15; n--) lengths.push(n);
  for (const len of lengths) {
    if (compactAll.length < len) continue;
    const compact = compactAll.slice(0, len);
    if (!ibanMod97(compact)) continue;
    // Map `len` alphanumerics back to an end offset in the original text.
    let seen = 0;
    let end = 0;
    while (seen < len) if (text[end++] !== ' ') seen++;
    // The IBAN must end at a word boundary, not in the middle of a longer token.
    if (/[A-Za-z0-9]/.test(m.input[m.index + end] ?? '')) continue;
    return { start: m.index, end: m.index + end };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Street addresses: a street named with its house number. Without the number ("I live on Main
// Street", "Rua das Flores is lovely") a street is a place, not an address, and stays.

/** A capitalised word of a street's name ("Baker", "Mary's", "O'Connell", "5th"). */
const STREET_WORD = "(?:\\p{Lu}[\\p{L}\\p{M}'’.-]*|\\d{1,3}(?:st|nd|rd|th))";
/** Small words inside a street's name in Romance languages ("das", "de la", "del", "di"). */
const STREET_PARTICLE = "(?:d[aeo]s?|de\\s+la|de\\s+los|de\\s+las|de\\s+l['’]|del|della|delle|dei|di|du|des|de|d['’])";
/** The house number: "12", "12A", "12-14", "221B", "n.º 5". */
const HOUSE_NUMBER = '(?:n\\.?\\s*[ºo°]\\s*)?\\d{1,5}[A-Za-z]?(?:\\s?[-/]\\s?\\d{1,5}[A-Za-z]?)?';
/**
 * What may follow an address: the end of the text or of a clause, a place or unit after it
 * ("in Porto", "Apt 4", "1100-123 Lisboa"). Not another word of the sentence, which makes
 * "Top 10 Best Place to visit" or "Via Zoom 3 times a week" no address.
 */
const ADDRESS_END =
  '(?=\\s*(?:[,.;:!?)\\]]|$)|\\s+(?:in|at|on|near|and|with|apt|apartment|suite|unit|flat|floor|em|en|no|na|nel|nella|à|a|#|\\d|\\p{Lu})(?![\\p{L}]))';
const STREET_ADDRESS_RES: readonly RegExp[] = [
  // English, number first: "221B Baker Street", "350 5th Ave", "12 St Mary's Road".
  new RegExp(
    `(?<![\\w.,/-])\\d{1,5}[A-Za-z]?(?:-\\d{1,5})?\\s+(?:[NSEW]\\.?\\s+)?(?:${STREET_WORD}\\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Terrace|Crescent|Parkway|Pkwy|Highway|Hwy|Square|Sq|Place|Pl|Way|Close)\\b\\.?${ADDRESS_END}`,
    'gu',
  ),
  // French, number first: "12 rue de la Paix", "3 bis, avenue Foch".
  new RegExp(
    `(?<![\\w.,/-])\\d{1,4}(?:\\s?(?:bis|ter))?,?\\s+(?:rue|avenue|boulevard|bd|allée|chemin|impasse|place|quai|cours)\\s+(?:${STREET_PARTICLE}\\s*)?${STREET_WORD}(?:\\s+(?:${STREET_PARTICLE}\\s*)?${STREET_WORD}){0,3}${ADDRESS_END}`,
    'giu',
  ),
  // The kind of street first, then its number (Portuguese, Spanish, Italian, French): "Rua das
  // Flores 12", "Calle de Alcalá, 45", "Via Roma 10", "Avenida da Liberdade n.º 5".
  new RegExp(
    `(?<![\\p{L}])(?:Rua|Avenida|Av\\.|Travessa|Largo|Praça|Calle|Carrer|Paseo|Plaza|Via|Viale|Piazza|Corso|Rue)\\s+(?:${STREET_PARTICLE}\\s+)?${STREET_WORD}(?:\\s+(?:${STREET_PARTICLE}\\s+)?${STREET_WORD}){0,4},?\\s+${HOUSE_NUMBER}(?![\\w-]|[.,]\\d)${ADDRESS_END}`,
    'gu',
  ),
  // German-speaking, the kind of street in the name: "Hauptstraße 5", "Lindenweg 12a".
  new RegExp(
    `(?<![\\p{L}])\\p{Lu}[\\p{L}-]*(?:straße|strasse|str\\.|weg|gasse|platz|allee|damm|ufer)\\s+\\d{1,4}[a-z]?(?![\\w-]|[.,]\\d)${ADDRESS_END}`,
    'gu',
  ),
];

function builtinDetectors(): Detector[] {
  const api = (regex: RegExp, priority = 90) => regexDetector('api_key', priority, regex, valueGroup);
  const finder = (type: PiiType, priority: number, find: (text: string) => Span[]): Detector => ({
    type,
    priority,
    find,
  });
  return [
    finder('private_key', 99, findPrivateKeys),
    finder('url_password', 95, findUrlPasswords),
    regexDetector(
      'email',
      80,
      /(?<![\w.%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g,
      whole,
    ),
    // OpenAI. Random keys carry digits; "sk-some-long-kebab-case-name" in prose does not.
    regexDetector('api_key', 90, /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, (m) =>
      /\d/.test(m[0]) ? whole(m) : undefined,
    ),
    api(/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b/g), // GitHub tokens
    api(/\bgithub_pat_[A-Za-z0-9_]{22,}\b/g), // GitHub fine-grained
    api(/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g), // AWS access key id
    api(/\bxox[abposr]-[A-Za-z0-9-]{10,}/g), // Slack
    api(/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g), // Google
    api(/\b(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b/g), // Stripe
    // JWT
    regexDetector('api_key', 85, /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, (m) =>
      isJwtHeader(m[0].slice(0, m[0].indexOf('.'))) ? whole(m) : undefined,
    ),
    finder('seed_phrase', 75, findSeedPhrases),
    // IBAN
    regexDetector('iban', 70, /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,32}/g, ibanSpan),
    // Not right after a token holding digits ("DE89 3704 …" is the tail of an IBAN, not a card).
    regexDetector(
      'credit_card',
      70,
      /(?<![\w.-]|[A-Za-z0-9]*\d[A-Za-z0-9]*[ -])\d+(?:[ -]\d+)*(?![\w]|[.-]\d)/g,
      cardSpan,
    ),
    regexDetector('ip_address', 60, /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)/g, (m) =>
      isIpv4(m[0]) ? whole(m) : undefined,
    ),
    regexDetector(
      'ip_address',
      60,
      /(?<![\w:.])(?=[0-9A-Fa-f]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]+(?:\d{1,3}(?:\.\d{1,3}){3})?(?![\w:.])/g,
      (m) => (isIpv6(m[0]) ? whole(m) : undefined),
    ),
    ...STREET_ADDRESS_RES.map((re) => regexDetector('street_address', 40, re, whole)),
    finder('secret_assignment', 55, findSecretAssignments),
    api(/\b[Bb]earer\s+(?<value>[A-Za-z0-9._~+/-]{16,}=*)/dg, 50),
    finder('credential', 45, findCredentials),
    regexDetector(
      'phone',
      30,
      /(?<![\w+#/.:-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{1,12}(?:[ ./-]\d{1,12}){0,6}(?![\w/]|[.:-]\d)/g,
      (m) => (isPhone(m[0]) ? whole(m) : undefined),
    ),
  ];
}

function withFlags(re: RegExp): RegExp {
  let flags = re.flags;
  if (!flags.includes('g')) flags += 'g';
  if (!flags.includes('d')) flags += 'd';
  return new RegExp(re.source, flags.replace('y', ''));
}

function defaultPlaceholder(type: PiiType, n: number): string {
  return `[${type.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${n}]`;
}

interface Candidate {
  type: PiiType;
  priority: number;
  start: number;
  end: number;
  order: number;
}

/**
 * Finds and masks personal data and secrets in text.
 *
 * Built-in detectors (each validates, not just pattern-matches):
 * - `email`;
 * - `phone`: international (`+CC …`, `00CC …`, 8–15 digits), North-American (`(555) 123-4567`,
 *   `555-123-4567`) and trunk-prefixed national numbers with separators (`030 1234567`,
 *   `0171/1234567`, `06 12 34 56 78`). Plain digit runs, years, dates and version strings are not phones;
 * - `credit_card`: 13–19 digits, optionally grouped by spaces or dashes, IIN starting 2–6, Luhn-valid;
 * - `iban`: upper-case, optionally space-grouped, country length and ISO 7064 mod-97 checked;
 * - `ip_address`: IPv4 (octets 0–255, no leading zeros) and IPv6 (full, compressed, IPv4-mapped);
 * - `street_address`: a street with its house number — "221B Baker Street", "12 rue de la Paix",
 *   "Rua das Flores 12", "Calle de Alcalá, 45", "Hauptstraße 5". A street without a number is a
 *   place, not an address, and is left alone;
 * - `api_key`: API keys and tokens with a known shape — OpenAI `sk-…`, GitHub `ghp_/gho_/ghu_/ghs_/ghr_…`
 *   and `github_pat_…`, AWS `AKIA/ASIA…`, Slack `xox?-…`, Google `AIza…`, Stripe `sk_/pk_/rk_live|test_…`,
 *   JWTs (header must decode to a JSON object) and `Bearer <token>` (only the token is masked).
 *
 * Secrets without a known shape, found by context (only the secret itself is masked):
 * - `credential`: a password, passphrase, passcode, PIN, secret, token or key stated in words —
 *   "my password is Tr0ub4dor&3", "the door passcode is 7319#", "PIN: 4821", "mi contraseña es …",
 *   "mon mot de passe est …", "mein Passwort lautet …", "minha senha é …". The value must look like
 *   one (quoted; digits after a password or PIN word; else 6+ characters with a digit, a symbol or
 *   an inner capital), so "I forgot my password again" or "the key is to rest" are left alone;
 * - `secret_assignment`: the value of a secret-named variable in `.env`, shell, JSON, YAML or TOML
 *   form — `OPENAI_API_KEY=…`, `export DB_PASSWORD='…'`, `"apiKey": "…"`, `client_secret: …`;
 *   references (`$VAR`, `process.env.X`) and stand-ins (`<your-key>`, `xxx`) are not secrets;
 * - `url_password`: the password of a URL's userinfo (`postgres://admin:S3cretPass@db:5432/app`);
 * - `private_key`: a PEM private-key block, `-----BEGIN … PRIVATE KEY-----` to its END line
 *   (or, pasted without one, the base64 lines that follow the header);
 * - `seed_phrase`: a BIP-39 wallet seed phrase — 12 to 24 consecutive words of the English list
 *   with a valid checksum, or any run of 12+ such words announced as a seed/recovery phrase.
 *
 * Overlaps are resolved deterministically: the higher priority wins (custom 100 by default,
 * private keys 99, URL passwords 95, specific API keys 90, JWT 85, email 80, seed phrases 75,
 * IBAN/card 70, IP 60, secret assignments 55, bearer 50, credentials 45, street addresses 40, phone 30), then the
 * longer match, then the earlier one.
 */
export class PiiMasker {
  #detectors: Detector[];
  #placeholder: (type: PiiType, n: number) => string;

  constructor(options: PiiMaskerOptions = {}) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    const custom = options.custom ?? [];
    if (!Array.isArray(custom)) invalid('custom', 'an array of { type, pattern }', custom);
    const customDetectors: Detector[] = custom.map((c: CustomPiiPattern, i) => {
      if (typeof c?.type !== 'string' || c.type.trim() === '')
        invalid(`custom[${i}].type`, 'a non-empty string', c?.type);
      if (!(c.pattern instanceof RegExp)) invalid(`custom[${i}].pattern`, 'a RegExp', c.pattern);
      if (c.validate !== undefined && typeof c.validate !== 'function')
        invalid(`custom[${i}].validate`, 'a function', c.validate);
      const priority = c.priority ?? 100;
      if (typeof priority !== 'number' || !Number.isFinite(priority))
        invalid(`custom[${i}].priority`, 'a finite number', priority);
      const validate = c.validate;
      return regexDetector(c.type, priority, withFlags(c.pattern), (m: RegExpExecArray) => {
        const span = valueGroup(m);
        if (validate && !validate(m.input.slice(span.start, span.end))) return undefined;
        return span;
      });
    });
    const types = options.types ?? PII_TYPES;
    if (!Array.isArray(types)) invalid('types', 'an array of PII types', types);
    const customTypes = new Set(customDetectors.map((d) => d.type));
    for (const t of types) {
      if (!(PII_TYPES as readonly string[]).includes(t) && !customTypes.has(t))
        invalid('types', `built-in types (${PII_TYPES.join(', ')}) or custom pattern types`, t);
    }
    const enabled = new Set<string>(types);
    this.#detectors = [...customDetectors, ...builtinDetectors().filter((d) => enabled.has(d.type))];
    const placeholder = options.placeholder ?? defaultPlaceholder;
    if (typeof placeholder !== 'function') invalid('placeholder', 'a function (type, n) => string', placeholder);
    this.#placeholder = placeholder;
  }

  /** Find PII without masking: the findings {@link PiiMasker.mask} would report. */
  detect(text: string): PiiFinding[] {
    return this.mask(text).findings;
  }

  /**
   * Mask every finding with a placeholder. Within one call, the same (type, value) always gets
   * the same placeholder; numbering per type follows first appearance in the text.
   */
  mask(text: string): MaskResult {
    if (typeof text !== 'string') invalid('text', 'a string', text);
    const candidates: Candidate[] = [];
    let order = 0;
    for (const d of this.#detectors) {
      for (const span of d.find(text)) {
        if (span.end > span.start)
          candidates.push({ type: d.type, priority: d.priority, start: span.start, end: span.end, order: order++ });
      }
    }
    candidates.sort(
      (a, b) =>
        b.priority - a.priority || b.end - b.start - (a.end - a.start) || a.start - b.start || a.order - b.order,
    );
    const kept: Candidate[] = []; // sorted by start, non-overlapping
    for (const c of candidates) {
      let lo = 0;
      let hi = kept.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (kept[mid]!.start < c.start) lo = mid + 1;
        else hi = mid;
      }
      const prev = kept[lo - 1];
      const next = kept[lo];
      if ((prev && prev.end > c.start) || (next && next.start < c.end)) continue;
      kept.splice(lo, 0, c);
    }
    const counters = new Map<string, number>();
    const assigned = new Map<string, string>();
    const findings: PiiFinding[] = [];
    let out = '';
    let cursor = 0;
    for (const c of kept) {
      const value = text.slice(c.start, c.end);
      const key = `${c.type}\u0000${value}`;
      let replacement = assigned.get(key);
      if (replacement === undefined) {
        const n = (counters.get(c.type) ?? 0) + 1;
        counters.set(c.type, n);
        replacement = this.#placeholder(c.type, n);
        if (typeof replacement !== 'string') invalid('placeholder()', 'to return a string', replacement);
        assigned.set(key, replacement);
      }
      findings.push({ type: c.type, value, start: c.start, end: c.end, replacement });
      out += text.slice(cursor, c.start) + replacement;
      cursor = c.end;
    }
    out += text.slice(cursor);
    return { text: out, findings };
  }
}

/**
 * Put the original values back into text that carries placeholders from {@link PiiMasker.mask}
 * (e.g. a model's answer to a masked prompt).
 */
export function unmask(text: string, findings: readonly PiiFinding[]): string {
  if (typeof text !== 'string') invalid('text', 'a string', text);
  const map = new Map<string, string>();
  for (const f of findings) if (!map.has(f.replacement)) map.set(f.replacement, f.value);
  if (map.size === 0) return text;
  // Longest placeholder first, so "[EMAIL_1]" never eats the start of "[EMAIL_10]".
  const keys = [...map.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return text.replace(re, (k) => map.get(k) ?? k);
}
