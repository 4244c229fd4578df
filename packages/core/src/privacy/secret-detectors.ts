import type { Span } from './seed-phrase.js';

/*
 * Secrets that carry no vendor prefix, found by what surrounds them: a credential stated in words
 * ("my password is …"), a secret-named assignment (`OPENAI_API_KEY=…`, `"apiKey": "…"`), the
 * password in a URL's userinfo, and PEM private-key blocks. Each finder returns spans; the masker
 * resolves overlaps between all detectors.
 */

/** A value that is already a masker placeholder (text masked twice stays as it was). */
const PLACEHOLDER = /^\[[A-Z][A-Z0-9_]*_\d+\]$/;
/** Documentation-style stand-ins, not secrets. */
const STAND_IN =
  /^(?:x{3,}|\*{3,}|\.{3}|…|<[^<>]*>|\{\{.*\}\}|\$\{?[\w.]+\}?|%[\w]+%?|changeme|change_me|example|placeholder|redacted|secret|password|passwd|pass|pwd|token|none|null|nil|undefined|true|false|string|required|optional|your[_-]?[\w-]*|my[_-]?[\w-]*(?:here)?|[\w-]*[_-]here)$/i;

function isStandIn(value: string): boolean {
  return PLACEHOLDER.test(value) || STAND_IN.test(value);
}

const PLACEHOLDER_AT = /\[[A-Z][A-Z0-9_]*_\d+\]/y;

/** Whether a placeholder starts at `at` (a value cut short before its `]` is still one). */
function placeholderAt(text: string, at: number): boolean {
  PLACEHOLDER_AT.lastIndex = at;
  return PLACEHOLDER_AT.test(text);
}

/** A symbol other than a hyphen or apostrophe inside a word ("self-care", "don't" are words). */
const SYMBOL = /[^\p{L}\p{N}\s'’-]|(?<![\p{L}\p{N}])['’-]|['’-](?![\p{L}\p{N}])/u;

/**
 * Holds a digit, a symbol or mixed case throughout (three lower-to-upper changes): what random
 * strings do and words — even `CamelCase` names — don't.
 */
function secretShaped(value: string): boolean {
  return /\d/.test(value) || SYMBOL.test(value) || (value.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 3;
}

/** Quantities, times and ranges ("4096", "3.5GB", "12:30", "5-10", "10x") are not credentials. */
const QUANTITY = /^[\d.,:/%x+-]*\d[\d.,:/%x+-]*(?:[a-z]{1,3})?$/i;

// ---------------------------------------------------------------------------------------------
// Credentials stated in words

/** Keywords whose value may be digits only (PINs, door codes, numeric passwords). */
const DIGITS_OK_WORDS =
  // biome-ignore lint/complexity/noUselessStringRaw: a regular-expression source, kept raw like the others
  String.raw`password|passwd|pwd|passphrase|pass phrase|contraseña|contrasena|clave(?: de acceso)?|mot de passe|mdp|phrase secrète|passwort|kennwort|senha|palavra-passe|parola d'ordine|pin(?:[ -]?(?:code|number))?|passcode|pass code|(?:door|gate|alarm|security|access|entry|unlock|lock|locker|safe|garage|verification|otp|2fa|sms|one-time) ?code|combination|geheimzahl|geheimcode|zugangscode|code pin|code secret|code d'accès|code de sécurité|código(?: pin| de acceso| de seguridad| de desbloqueo| de acesso| de segurança)|codice(?: pin| segreto)|número secreto|pin-code`;
/** Keywords whose value must look random. Both lists: en, es, fr, de, pt, it. */
const OTHER_WORDS =
  // biome-ignore lint/complexity/noUselessStringRaw: a regular-expression source, kept raw like the others
  String.raw`secret|token|(?:api|access|secret|private|license|licence|product|wifi|wi-fi|wpa2?|encryption|recovery|ssh) ?key|key|clé(?: api)?|schlüssel|chave|chiave`;

const CREDENTIAL_KEYWORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])(?:(?<digits>${DIGITS_OK_WORDS})|${OTHER_WORDS})(?![\p{L}\p{N}_])`,
  'giu',
);
/** "is", ":" … — the value follows; when it does not look like one, the sentence is about something else. */
const STRONG_CONNECTOR =
  /(?:\s*(?:=>|->|[:=])\s*|['’]s\s+|\s+(?:is(?: now| still| set to)?|was|are|should be|will be|es|era|será|est|était|sera|c'est|ist|lautet|war|é|è)(?:\s*:)?\s+)/uy;
/** "changed it to …", "is my password still …": the value may follow, or the words go on ("password to my bank is …"). */
const WEAK_CONNECTOR = /\s+(?:to|still|a|à|en|auf|zu|para|em)\s+/uy;
/** Words between keyword and connector ("my wifi password at home is …"). */
const BETWEEN_WORD = /\s+[\p{L}\p{N}_'’-]{1,24}/uy;
/** A keyword followed by these words names something else ("password length is 12345678"). */
const NOT_A_VALUE = new Set(
  'count limit limits length size bits budget expiry expiration expires expired type format field policy rule rules requirement requirements strength manager reset hint prompt strategy generator hash usage window rotation lifetime ttl name id index price cost'.split(
    ' ',
  ),
);
const MAX_BETWEEN_WORDS = 3;
const MAX_VALUE = 128;
const QUOTES: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '`': '`',
  '“': '”',
  '‘': '’',
  '«': '»',
  '„': '“',
};

/**
 * `password` / `passphrase` / `passcode` / `PIN` / `secret` / `token` / `key` (and their Spanish,
 * French, German, Portuguese and Italian names) followed, within three words, by "is", ":", "="
 * (or "es", "est", "ist", "lautet", "é", "è" …) and a value. The value must look like a
 * credential: quoted, 4–12 digits after a password- or PIN-like word, or 6+ characters holding a digit, a
 * symbol or an inner capital. "I forgot my password again" and "the key is to rest" stay.
 */
export function findCredentials(text: string): Span[] {
  const out: Span[] = [];
  const re = CREDENTIAL_KEYWORD;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const span = valueAfterKeyword(
      text,
      m.index + m[0].length,
      m.groups?.digits !== undefined,
      /phrase|phrase secrète/i.test(m[0]),
    );
    if (span) {
      out.push(span);
      re.lastIndex = span.end;
    }
  }
  return out;
}

function valueAfterKeyword(text: string, from: number, digitsOk: boolean, phrase: boolean): Span | undefined {
  let pos = from;
  for (let words = 0; words <= MAX_BETWEEN_WORDS; words++) {
    STRONG_CONNECTOR.lastIndex = pos;
    const strong = STRONG_CONNECTOR.exec(text);
    if (strong) return credentialValue(text, pos + strong[0].length, digitsOk, phrase);
    WEAK_CONNECTOR.lastIndex = pos;
    const weak = WEAK_CONNECTOR.exec(text);
    if (weak) {
      const span = credentialValue(text, pos + weak[0].length, digitsOk, phrase);
      if (span) return span;
    }
    BETWEEN_WORD.lastIndex = pos;
    const word = BETWEEN_WORD.exec(text);
    if (!word || NOT_A_VALUE.has(word[0].trim().toLowerCase())) return undefined;
    pos += word[0].length;
  }
  return undefined;
}

function credentialValue(text: string, at: number, digitsOk: boolean, phrase: boolean): Span | undefined {
  if (placeholderAt(text, at)) return undefined;
  const close = QUOTES[text[at] ?? ''];
  if (close) {
    const end = text.indexOf(close, at + 1);
    if (end < 0 || end - at - 1 > MAX_VALUE || text.slice(at + 1, end).includes('\n')) return undefined;
    const value = text.slice(at + 1, end);
    // Several words only for a passphrase; `${…}` is a template, not a value.
    if (value.trim().length < 3 || isStandIn(value) || value.includes('${') || (/\s/.test(value) && !phrase))
      return undefined;
    return { start: at + 1, end };
  }
  const raw = /^\S{1,128}/.exec(text.slice(at, at + MAX_VALUE + 1))?.[0];
  if (!raw) return undefined;
  const value = raw.replace(/[.,;:)\]}>"'’”»]+$/, '');
  if (!value || isStandIn(value) || reference(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  if (digitsOk && /^\d{4,12}[#*]?$/.test(value)) return { start: at, end: at + value.length };
  if (value.length < 6 || QUANTITY.test(value) || !secretShaped(value)) return undefined;
  return { start: at, end: at + value.length };
}

// ---------------------------------------------------------------------------------------------
// Secret-named assignments (.env, shell, JSON, YAML, TOML)

// The name is matched atomically (lookahead + backreference): no backtracking into it.
const ASSIGNMENT =
  /(?<![\w$.-])(?:export\s+)?(?<q>["']?)(?<name>(?=(?<n>[A-Za-z_][\w.-]{0,63}))\k<n>)\k<q>[ \t]*(?<op>=|:)[ \t]*(?<value>"[^"\n]{0,256}"|'[^'\n]{0,256}'|`[^`\n]{0,256}`|[^\s"'`,;}\]]{1,256})/dg;

/** The last segment(s) of a name that make it secret. `key` needs a qualifier or an ALL_CAPS name. */
const SECRET_SEGMENTS = new Set([
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'credential',
  'credentials',
  'apikey',
  'privatekey',
  'pin',
]);
const KEY_QUALIFIERS = new Set([
  'api',
  'secret',
  'private',
  'access',
  'encryption',
  'signing',
  'master',
  'license',
  'licence',
  'auth',
  'client',
  'app',
  'service',
  'account',
  'ssh',
  'session',
  'deploy',
  'webhook',
  'subscription',
]);
/** Suffixes that still name the secret itself (`SECRET_KEY_BASE`, `password_value`). */
/** `STORAGE_KEY`, `SORT_KEY`: keys of maps and stores in code, not secrets. */
const LOOKUP_KEY_QUALIFIERS = new Set(
  'storage cache settings setting sort primary foreign partition lookup map index encrypted context working state local config route query event data field row column item list group tenant user id name type hot shortcut keyboard registry prefix'.split(
    ' ',
  ),
);
const VALUE_SUFFIXES = new Set(['value', 'base', 'str', 'string', 'plain', 'plaintext']);

function nameSegments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_.-]+/)
    .filter(Boolean)
    .map((s) => s.toLowerCase());
}

function secretName(name: string): boolean {
  const segs = nameSegments(name);
  if (segs.length > 1 && VALUE_SUFFIXES.has(segs[segs.length - 1]!)) segs.pop();
  const last = segs[segs.length - 1];
  if (!last) return false;
  if (SECRET_SEGMENTS.has(last)) return true;
  if (last !== 'key') return false;
  const qualifier = segs[segs.length - 2] ?? '';
  const allCaps = /[A-Z]/.test(name) && name === name.toUpperCase() && segs.length > 1;
  return KEY_QUALIFIERS.has(qualifier) || (allCaps && !LOOKUP_KEY_QUALIFIERS.has(qualifier));
}

/**
 * `NAME=value`, `export NAME=value`, `NAME: value`, `"name": "value"` where the name is secret
 * (`OPENAI_API_KEY`, `DB_PASSWORD`, `apiKey`, `client-secret`, `githubToken`; a single word such as
 * `password` only in `=` or quoted-key form, the prose forms are {@link findCredentials}'). The
 * value needs 6+ characters and must not be a reference (`$VAR`, `process.env.X`, `getKey()`) or
 * a stand-in (`<your-key>`, `xxx`, `null`); an unquoted value after `:` must also look random.
 */
export function findSecretAssignments(text: string): Span[] {
  const out: Span[] = [];
  if (!/[=:]/.test(text) || !/pass|pwd|secret|token|key|credential|pin/i.test(text)) return out;
  const re = ASSIGNMENT;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const g = m.groups!;
    const name = g.name!;
    const compound = nameSegments(name).length > 1;
    if (!secretName(name) || (!compound && g.q === '' && g.op === ':')) {
      // Retry just after the name: "password=…" may sit inside a longer assignment's value.
      re.lastIndex = m.index + Math.max(1, m[0].length - g.value!.length);
      continue;
    }
    const [vs, ve] = m.indices!.groups!.value!;
    const quoted = /^["'`]/.test(g.value!);
    const start = quoted ? vs + 1 : vs;
    let end = quoted ? ve - 1 : ve;
    if (!quoted) while (end > start && text[end - 1] === '.') end--;
    const value = text.slice(start, end);
    if (value.length < 6 || isStandIn(value) || reference(value) || placeholderAt(text, start)) continue;
    if (!quoted && g.op === ':' && !secretShaped(value)) continue;
    out.push({ start, end });
  }
  return out;
}

/** Code that reads a secret from somewhere else, not the secret. */
function reference(value: string): boolean {
  return (
    /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env\(|getenv|secrets\.|vault:|\$|%|\{\{)/.test(value) ||
    /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[[^\]]*\])+[!?]?$/.test(value) || // a.b?.c[d] member access
    /^[A-Za-z_$][\w$.]*\(.*\)?$/.test(value) // a call
  );
}

// ---------------------------------------------------------------------------------------------
// URL userinfo passwords

const URL_USERINFO = /\b[a-z][a-z0-9+.-]{1,31}:\/\/[^\s:/?#@]*:(?<value>[^\s/?#]+)@(?=[^\s/?#@])/dgi;

/** `scheme://user:password@host` → the password (the last `@` before the host ends it). */
export function findUrlPasswords(text: string): Span[] {
  const out: Span[] = [];
  const re = URL_USERINFO;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const [start, end] = m.indices!.groups!.value!;
    if (!isStandIn(text.slice(start, end)) && !placeholderAt(text, start)) out.push({ start, end });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// PEM private keys

const PEM_BEGIN = /-----BEGIN (?<label>(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g;
/** Body lines of a PEM block whose END line is missing (pasted in part). */
const PEM_BODY = /(?:\s*(?:[A-Za-z0-9+/=]{16,}|Proc-Type:[^\n]*|DEK-Info:[^\n]*|Version:[^\n]*|Comment:[^\n]*))*/y;

/**
 * `-----BEGIN … PRIVATE KEY-----` through its `-----END … PRIVATE KEY-----` (RSA, EC, DSA,
 * OPENSSH, ENCRYPTED, PGP … BLOCK), on separate lines or run together; without an END line, the
 * header and the base64 lines that follow it. Public keys and certificates are not secret.
 */
export function findPrivateKeys(text: string): Span[] {
  const out: Span[] = [];
  // Where each END line next occurs (-1: nowhere further on), so many BEGINs without an END stay linear.
  const ends = new Map<string, number>();
  const re = PEM_BEGIN;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const endLine = `-----END ${m.groups!.label!}-----`;
    let endAt = ends.get(endLine);
    if (endAt === undefined || (endAt >= 0 && endAt < m.index)) {
      endAt = text.indexOf(endLine, m.index + m[0].length);
      ends.set(endLine, endAt);
    }
    const nextBegin = text.indexOf('-----BEGIN ', m.index + m[0].length);
    let end: number;
    if (endAt >= 0 && (nextBegin < 0 || endAt < nextBegin)) end = endAt + endLine.length;
    else {
      PEM_BODY.lastIndex = m.index + m[0].length;
      end = PEM_BODY.exec(text) ? PEM_BODY.lastIndex : m.index + m[0].length;
    }
    out.push({ start: m.index, end });
    re.lastIndex = end;
  }
  return out;
}
