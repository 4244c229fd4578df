import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIP39_ENGLISH } from './bip39-english.js';
import { PII_TYPES, PiiMasker, unmask, type PiiType } from './pii-masker.js';
import { findSeedPhrases, sha256 } from './seed-phrase.js';

const masker = new PiiMasker();

// Key material is assembled at run time so secret scanners do not flag this file.
const PEM = (label: string, body: string[]) =>
  [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join('\n');
const B64 = ['MIIEowIBAAKCAQEAx4k3aB8cQ9vZ2m', 'T1pLq0wYb7nR4sV6uX8zC3eF5gH7j', 'K9mN1pQ2rS4tU6vW8xYz0aB3dE5gH'];
const RSA = PEM(['RSA', 'PRIVATE', 'KEY'].join(' '), B64);
const OPENSSH = PEM(['OPENSSH', 'PRIVATE', 'KEY'].join(' '), B64);
const PKCS8 = PEM(['PRIVATE', 'KEY'].join(' '), B64);
const ENCRYPTED = PEM(['ENCRYPTED', 'PRIVATE', 'KEY'].join(' '), B64);
const PGP = PEM(['PGP', 'PRIVATE', 'KEY', 'BLOCK'].join(' '), ['Version: GnuPG v2', '', ...B64]);

// BIP-39 test vectors (trezor/python-mnemonic vectors.json): valid checksums.
const SEED_12 = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const SEED_12B = 'scheme spot photo card baby mountain device kick cradle pact join borrow';
const SEED_18 = `${'abandon '.repeat(17)}agent`;
const SEED_24 =
  'void come effort suffer camp survey warrior heavy shoot primary clutch crush open amazing screen patrol group space point ten exist slush involve unfold';

function only(text: string): [PiiType, string] | undefined {
  const { findings } = masker.mask(text);
  expect(findings.length, `${text} -> ${JSON.stringify(findings)}`).toBeLessThanOrEqual(1);
  return findings[0] && [findings[0].type, findings[0].value];
}

describe('secrets: each kind is found, as its own type', () => {
  it.each<[string, PiiType, string]>([
    // Credentials stated in words, in English and a few other languages.
    ['my password is Tr0ub4dor&3', 'credential', 'Tr0ub4dor&3'],
    ['my bank pin is 4821', 'credential', '4821'],
    ['the door passcode is 7319#', 'credential', '7319#'],
    ['PIN: 4821.', 'credential', '4821'],
    ['PASSWORD: hunter2hunter2', 'credential', 'hunter2hunter2'],
    ['the wifi password at home is: B3tterSafe!', 'credential', 'B3tterSafe!'],
    ['I changed my password to Hunter2024! yesterday', 'credential', 'Hunter2024!'],
    ['is my password still Hunter2024!', 'credential', 'Hunter2024!'],
    ['my passphrase is "correct horse battery staple"', 'credential', 'correct horse battery staple'],
    ["the password's 12345678", 'credential', '12345678'],
    ['my api key is a8f5f167f44f4964e6c998dee827110c, keep it', 'credential', 'a8f5f167f44f4964e6c998dee827110c'],
    ['the alarm code is 0451', 'credential', '0451'],
    ['mi contraseña es Gato2024!', 'credential', 'Gato2024!'],
    ['la clave del wifi es 12345678', 'credential', '12345678'],
    ['mon mot de passe est Soleil#99', 'credential', 'Soleil#99'],
    ['le code PIN : 2580', 'credential', '2580'],
    ['mein Passwort lautet Sommer2024', 'credential', 'Sommer2024'],
    ['Die PIN ist 9876', 'credential', '9876'],
    ['minha senha é Brasil@123', 'credential', 'Brasil@123'],
    ['la password è Roma2024!', 'credential', 'Roma2024!'],
    // Secret-named assignments (.env, shell, JSON, YAML).
    ['OPENAI_API_KEY=abc123def456ghi789', 'secret_assignment', 'abc123def456ghi789'],
    ["export DB_PASSWORD='swordfish'", 'secret_assignment', 'swordfish'],
    ['{"apiKey": "abcdefghijklmnop", "name": "demo"}', 'secret_assignment', 'abcdefghijklmnop'],
    ['client_secret: 4f9a7c2e1b8d', 'secret_assignment', '4f9a7c2e1b8d'],
    ['password=hunter22', 'secret_assignment', 'hunter22'],
    ['SECRET_KEY_BASE = "d3adb33fcafe"', 'secret_assignment', 'd3adb33fcafe'],
    [
      `AWS_SECRET_ACCESS_KEY=${['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/')}`,
      'secret_assignment',
      ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/'),
    ],
    // URL userinfo passwords: the password, not an e-mail address.
    ['postgres://admin:S3cretPass@db.internal:5432/app', 'url_password', 'S3cretPass'],
    ['redis://:hunter2@cache:6379', 'url_password', 'hunter2'],
    ['https://user:p@ss:w0rd@example.com/x', 'url_password', 'p@ss:w0rd'],
    // PEM private keys, as pasted.
    [`here:\n${RSA}\nthanks`, 'private_key', RSA],
    [`key ${OPENSSH} end`, 'private_key', OPENSSH],
    [PKCS8.replace(/\n/g, ' '), 'private_key', PKCS8.replace(/\n/g, ' ')],
    [ENCRYPTED, 'private_key', ENCRYPTED],
    [PGP, 'private_key', PGP],
    // BIP-39 seed phrases (valid checksum), however they are laid out.
    [SEED_12, 'seed_phrase', SEED_12],
    [`backup: ${SEED_12B}.`, 'seed_phrase', SEED_12B],
    [SEED_18, 'seed_phrase', SEED_18],
    [SEED_24.replace(/ /g, '\n'), 'seed_phrase', SEED_24.replace(/ /g, '\n')],
    [
      SEED_12.split(' ')
        .map((w, i) => `${i + 1}. ${w}`)
        .join(' '),
      'seed_phrase',
      SEED_12.split(' ')
        .map((w, i) => `${i + 1}. ${w}`)
        .join(' ')
        .slice(3),
    ],
    [SEED_12.toUpperCase(), 'seed_phrase', SEED_12.toUpperCase()],
  ])('%s -> %s', (text, type, value) => {
    const { findings, text: masked } = masker.mask(text);
    expect(findings.map((f) => [f.type, f.value])).toEqual([[type, value]]);
    const f = findings[0]!;
    expect(text.slice(f.start, f.end)).toBe(value);
    expect(f.replacement).toBe(`[${type.toUpperCase()}_1]`);
    expect(masked).toBe(text.slice(0, f.start) + f.replacement + text.slice(f.end));
    expect(masked).not.toContain(value);
    expect(unmask(masked, findings)).toBe(text);
  });

  it('a URL password is not swallowed by the e-mail pattern', () => {
    expect(masker.mask('DATABASE_URL is postgres://admin:S3cretPass@db.internal:5432/app').text).toBe(
      'DATABASE_URL is postgres://admin:[URL_PASSWORD_1]@db.internal:5432/app',
    );
  });

  it('a seed phrase with a typo is still masked when announced as one; leading words stay', () => {
    const typo = SEED_12.replace('yellow', 'zoo'); // checksum no longer valid
    expect(findSeedPhrases(typo)).toEqual([]);
    expect(only(`my recovery phrase, please keep it: ${typo}`)).toEqual(['seed_phrase', typo]);
    expect(masker.mask(`wallet seed phrase ${SEED_12}`).text).toBe('wallet seed phrase [SEED_PHRASE_1]');
  });

  it('a PEM block pasted without its END line is masked through its base64 lines', () => {
    const cut = RSA.slice(0, RSA.indexOf('-----END')).trimEnd();
    expect(masker.mask(`${cut}\nsorry, it got cut off`).text).toBe('[PRIVATE_KEY_1]\nsorry, it got cut off');
  });

  it('a vendor key inside an assignment is reported once, as the more specific api_key', () => {
    const key = `sk-proj-${'aB3dE5gH7jK9mN1pQ2rS4tU6'}`;
    expect(masker.mask(`OPENAI_API_KEY=${key}`).findings.map((f) => [f.type, f.value])).toEqual([['api_key', key]]);
  });

  it('lists the new types and lets callers turn them off', () => {
    expect(PII_TYPES).toEqual(
      expect.arrayContaining(['credential', 'secret_assignment', 'url_password', 'private_key', 'seed_phrase']),
    );
    const emailOnly = new PiiMasker({ types: ['email'] });
    expect(emailOnly.mask('my password is Tr0ub4dor&3').findings).toEqual([]);
  });

  it('masks every secret of a message, numbered per type, and unmask() restores it', () => {
    const text = [
      'my password is Tr0ub4dor&3 and the pin is 4821;',
      'OPENAI_API_KEY=abc123def456ghi789',
      'db: postgres://admin:S3cretPass@db.internal:5432/app',
      `seed: ${SEED_12}`,
      RSA,
      'mail ana@example.com, password is Tr0ub4dor&3 again',
    ].join('\n');
    const r = masker.mask(text);
    expect(r.findings.map((f) => f.replacement)).toEqual([
      '[CREDENTIAL_1]',
      '[CREDENTIAL_2]',
      '[SECRET_ASSIGNMENT_1]',
      '[URL_PASSWORD_1]',
      '[SEED_PHRASE_1]',
      '[PRIVATE_KEY_1]',
      '[EMAIL_1]',
      '[CREDENTIAL_1]',
    ]);
    for (const secret of ['Tr0ub4dor&3', '4821', 'abc123def456ghi789', 'S3cretPass', 'sausage', B64[1]!])
      expect(r.text).not.toContain(secret);
    expect(unmask(r.text, r.findings)).toBe(text);
    // Masking masked text changes nothing: placeholders are not secrets.
    expect(masker.mask(r.text)).toEqual({ text: r.text, findings: [] });
  });
});

describe('secrets: look-alikes in ordinary talk are left alone', () => {
  const LOOK_ALIKES = [
    // Talk about passwords, PINs, keys and tokens that states none.
    'I forgot my password again',
    "What's the wifi password?",
    'The password must be at least 12 characters long.',
    'My password manager is great, I use 1Password.',
    'Does my password still work?',
    'Reset your password with the link below.',
    'The password is on a sticky note under the keyboard.',
    'My PIN is something I never share.',
    'The password length is 12345678 characters?',
    'The key is to stay consistent.',
    'The key to the castle is under the mat.',
    'The secret is out: we are moving to Berlin.',
    'The secret to good bread is time.',
    'The token count is 4096 and the key is 2048 bits.',
    'Token limit: 8192 per request.',
    'The token is expired, log in again.',
    'The key takeaway: practice daily.',
    'The keynote is at 10:30 and the session key: rotate weekly.',
    'The passcode screen appears after 5 minutes.',
    'The door code is on the fridge.',
    'Can you pin the tab? Pin it to the top of the channel, the pin is loose.',
    'Mi contraseña es demasiado larga.',
    'Mon mot de passe est oublié.',
    'Mein Passwort ist zu kurz.',
    'Minha senha é fraca.',
    // Words of the BIP-39 list in prose and lists.
    'an abstract painting about absurd things',
    'We bought milk, bread, butter, cheese, coffee, sugar, salt, pepper, rice, apple, banana and lemon.',
    `${'abandon '.repeat(11)}abandon`, // 12 list words, invalid checksum, nothing says "seed"
    // URLs without credentials, code and configuration without secrets.
    'See https://example.com:8080/docs?page=2#intro or postgres://db.internal:5432/app.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell reference, on purpose
    'API_KEY=<your-key-here> and OPENAI_API_KEY=${OPENAI_API_KEY} and TOKEN=xxxxxxxx',
    '{"token": null, "apiKey": process.env.OPENAI_API_KEY, "password": ""}',
    'const apiKey = options.apiKey; let token = getToken();',
    'primary_key = id; sort_key: createdAt; STORAGE_KEY = "zerda:settings"',
    'My token is short: token=abc and the tokenizer=bpe',
    'The token: authentication. The password: required.',
    // Colours, numbers, public key material.
    'Colours #ff00aa, #FFF and rgb(255, 0, 170); id 550e8400-e29b-41d4-a716-446655440000.',
    PEM(['PUBLIC', 'KEY'].join(' '), B64),
    PEM('CERTIFICATE', B64),
  ];

  it.each(LOOK_ALIKES)('%s', (text) => {
    const { findings, text: masked } = masker.mask(text);
    expect(findings).toEqual([]);
    expect(masked).toBe(text);
  });

  it('the shopping list above is 12 words of the list, judged by its checksum', () => {
    const words = 'milk bread butter cheese coffee sugar salt pepper rice apple banana lemon'.split(' ');
    expect(words.every((w) => BIP39_ENGLISH.includes(w))).toBe(true);
  });
});

// LoCoMo (CC BY-NC 4.0, not redistributed): 34k turns of real-sounding chat, read where the
// retrieval evaluation reads it.
const LOCOMO =
  process.env.LOCOMO_PATH ?? fileURLToPath(new URL('../../../../../shared/bench/data/locomo10.json', import.meta.url));

describe.skipIf(!existsSync(LOCOMO))('secrets: no false alarm in a chat corpus (LoCoMo)', () => {
  it('finds no secret in any of its texts', () => {
    const texts: string[] = [];
    const walk = (x: unknown): void => {
      if (typeof x === 'string') texts.push(x);
      else if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') Object.values(x).forEach(walk);
    };
    walk(JSON.parse(readFileSync(LOCOMO, 'utf8')));
    expect(texts.length).toBeGreaterThan(10_000);
    const secretTypes = new Set<string>([
      'credential',
      'secret_assignment',
      'url_password',
      'private_key',
      'seed_phrase',
    ]);
    const alarms = texts.flatMap((t) =>
      masker
        .mask(t)
        .findings.filter((f) => secretTypes.has(f.type))
        .map((f) => `${f.type}: ${t}`),
    );
    expect(alarms).toEqual([]);
  });
});

describe('seed phrases: the wordlist and the checksum', () => {
  it('bundles the 2,048-word BIP-39 English list, sorted and unique', async () => {
    expect(BIP39_ENGLISH).toHaveLength(2048);
    expect(new Set(BIP39_ENGLISH).size).toBe(2048);
    expect([...BIP39_ENGLISH].sort()).toEqual(BIP39_ENGLISH);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${BIP39_ENGLISH.join('\n')}\n`));
    expect(Buffer.from(digest).toString('hex')).toBe(
      '2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda',
    );
  });

  it('sha256 agrees with WebCrypto', async () => {
    for (const n of [0, 1, 16, 31, 32, 33, 55, 56, 63, 64, 65, 200]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      expect(Buffer.from(sha256(bytes)).toString('hex'), `length ${n}`).toBe(Buffer.from(expected).toString('hex'));
    }
  });

  it('finds only checksum-valid phrases of the BIP-39 lengths when nothing announces them', () => {
    for (const phrase of [
      SEED_12,
      SEED_12B,
      SEED_18,
      SEED_24,
      `${'zoo '.repeat(11)}wrong`,
      `${'abandon '.repeat(23)}art`,
    ])
      expect(findSeedPhrases(phrase), phrase).toHaveLength(1);
    // A 12-word phrase's last word holds 7 bits of entropy and 4 of checksum: of the 2,048 words,
    // 128 complete a given 11-word prefix, the others fail the checksum.
    const prefix = SEED_12.split(' ').slice(0, 11).join(' ');
    const completing = BIP39_ENGLISH.filter((w) => findSeedPhrases(`${prefix} ${w}`).length === 1);
    expect(completing).toHaveLength(128);
    expect(completing).toContain('yellow');
    // 11 words are not a phrase, even valid-looking ones.
    expect(findSeedPhrases(prefix)).toEqual([]);
  });
});

describe('secrets: masking stays linear on adversarial inputs', () => {
  it('handles long repetitive inputs', () => {
    const begin = `-----BEGIN ${['PRIVATE', 'KEY'].join(' ')}-----`;
    const inputs = [
      'password is '.repeat(10_000),
      'my pin is 1 '.repeat(10_000),
      begin.repeat(4_000),
      `${begin}\n${'QUJD'.repeat(25_000)}`,
      'abandon '.repeat(20_000),
      `seed ${'abandon '.repeat(60)}`,
      'abandon 1. '.repeat(10_000),
      'postgres://a:'.repeat(10_000),
      'x://u:p'.repeat(10_000) + '@',
      'API_KEY='.repeat(10_000),
      '"apiKey": "'.repeat(10_000),
      'key: '.repeat(20_000),
      'a'.repeat(100_000),
    ];
    for (const text of inputs) {
      const t = performance.now();
      masker.mask(text);
      expect(performance.now() - t, text.slice(0, 16)).toBeLessThan(2000);
    }
  });
});
