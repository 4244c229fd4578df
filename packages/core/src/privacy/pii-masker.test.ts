import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { PiiMasker, unmask, type PiiType } from './pii-masker.js';

const masker = new PiiMasker();

/** Values found in `text`, as `type:value`. */
function found(text: string, m: PiiMasker = masker): string[] {
  return m.mask(text).findings.map((f) => `${f.type}:${f.value}`);
}

// Fake secrets are assembled at run time so secret scanners do not flag this file.
const fake = (prefix: string, n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xYz0') =>
  prefix + Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('PiiMasker: true positives', () => {
  it.each<[string, PiiType, string]>([
    ['mail me at jane.doe+news@example.co.uk today', 'email', 'jane.doe+news@example.co.uk'],
    ['call +49 30 1234567 please', 'phone', '+49 30 1234567'],
    ['call +1 (555) 123-4567.', 'phone', '+1 (555) 123-4567'],
    ['UK: +44 20 7946 0958', 'phone', '+44 20 7946 0958'],
    ['my cell is (555) 123-4567', 'phone', '(555) 123-4567'],
    ['or 555-123-4567', 'phone', '555-123-4567'],
    ['Büro 030 1234567', 'phone', '030 1234567'],
    ['portable 06 12 34 56 78', 'phone', '06 12 34 56 78'],
    ['intl 0049 171 1234567', 'phone', '0049 171 1234567'],
    ['Handy 0171/1234567.', 'phone', '0171/1234567'],
    ['US +1-555-123-4567', 'phone', '+1-555-123-4567'],
    ['DE +49 (0)30 1234567', 'phone', '+49 (0)30 1234567'],
    ['card 4111 1111 1111 1111 exp 12/30', 'credit_card', '4111 1111 1111 1111'],
    ['card 4111-1111-1111-1111', 'credit_card', '4111-1111-1111-1111'],
    ['amex 378282246310005', 'credit_card', '378282246310005'],
    ['amex 3782 822463 10005', 'credit_card', '3782 822463 10005'],
    ['IBAN DE89 3704 0044 0532 0130 00 thanks', 'iban', 'DE89 3704 0044 0532 0130 00'],
    ['and my address is Rua das Flores 12.', 'street_address', 'Rua das Flores 12'],
    ['I live at 221B Baker Street, London.', 'street_address', '221B Baker Street'],
    ['send it to 350 5th Ave, New York', 'street_address', '350 5th Ave'],
    ['notre appartement : 12 rue de la Paix, Paris', 'street_address', '12 rue de la Paix'],
    ['Meine Adresse ist Hauptstraße 5a, Berlin.', 'street_address', 'Hauptstraße 5a'],
    ['vivo en Calle de Alcalá, 45, Madrid', 'street_address', 'Calle de Alcalá, 45'],
    ['Avenida da Liberdade n.º 5 em Lisboa', 'street_address', 'Avenida da Liberdade n.º 5'],
    ["at 12 St Mary's Road in Leeds", 'street_address', "12 St Mary's Road"],
    ['GB82WEST12345698765432', 'iban', 'GB82WEST12345698765432'],
    ['server 192.168.1.20 is down', 'ip_address', '192.168.1.20'],
    ['v6 2001:db8:85a3::8a2e:370:7334 ok', 'ip_address', '2001:db8:85a3::8a2e:370:7334'],
    ['full 2001:0db8:0000:0000:0000:ff00:0042:8329', 'ip_address', '2001:0db8:0000:0000:0000:ff00:0042:8329'],
    ['loopback ::1 and', 'ip_address', '::1'],
    ['mapped ::ffff:192.0.2.1 here', 'ip_address', '::ffff:192.0.2.1'],
    [`key ${fake('sk-proj-', 40)} end`, 'api_key', fake('sk-proj-', 40)],
    [`gh ${fake('ghp_', 36)}`, 'api_key', fake('ghp_', 36)],
    [`gh ${fake('gho_', 36)}`, 'api_key', fake('gho_', 36)],
    [`pat ${fake('github_pat_', 60)}`, 'api_key', fake('github_pat_', 60)],
    ['aws AKIAIOSFODNN7EXAMPLE', 'api_key', 'AKIAIOSFODNN7EXAMPLE'],
    [`slack ${fake('xoxb-1234-', 24)}`, 'api_key', fake('xoxb-1234-', 24)],
    [`google ${fake('AIza', 35)}`, 'api_key', fake('AIza', 35)],
    [`stripe ${fake('sk_live_', 24)}`, 'api_key', fake('sk_live_', 24)],
    [`stripe ${fake('pk_live_', 24)}`, 'api_key', fake('pk_live_', 24)],
    [`jwt ${JWT}`, 'api_key', JWT],
    ['Authorization: Bearer abcDEF123456ghiJKL789', 'api_key', 'abcDEF123456ghiJKL789'],
    // Secrets without a vendor shape have their own types (see secret-detectors.test.ts).
    ['config api_key="9f8e7d6c5b4a39281706"', 'secret_assignment', '9f8e7d6c5b4a39281706'],
    ['PASSWORD: hunter2hunter2', 'credential', 'hunter2hunter2'],
  ])('%s -> %s', (text, type, value) => {
    const { findings, text: masked } = masker.mask(text);
    expect(findings.map((f) => [f.type, f.value])).toEqual([[type, value]]);
    const f = findings[0]!;
    expect(text.slice(f.start, f.end)).toBe(value);
    expect(masked).toBe(text.slice(0, f.start) + f.replacement + text.slice(f.end));
    expect(masked).not.toContain(value);
  });
});

describe('PiiMasker: false positives', () => {
  it.each([
    'Meeting on 2024-01-15 at 10:30, or 15.01.2024 or 01/15/2024.',
    'In 1999 and 2024 we sold 12345 units; 3.14159 is pi.',
    'Order #123456789012 and order number 20240115123 shipped.',
    'Invoice 0000000000000000 and tracking 1234567890.',
    'Upgrade to v1.2.3, version 2.10.4 or 10.0.19041.1234-beta.',
    'Luhn-invalid card 4111 1111 1111 1112 must stay.',
    'Bad IBAN DE89 3704 0044 0532 0130 01 stays.',
    'Not an IP: 256.1.1.1 or 192.168.01.1 or 1.2.3.4.5',
    'Time 12:30:45, MAC 00:1A:2B:3C:4D:5E, C++ std::vector<int>',
    'Words like sk-short, ghp_tooshort, AKIA123 and eyJnot.a.jwt stay.',
    'My token is short: token=abc and the tokenizer=bpe',
    'Call me maybe at 12 34 or extension 4567.',
    'The token: authentication. The password: required. Use sk-learn-style-naming-conventions-here.',
    'ISBN 978-3-16-148410-0, ts 1700000000000, id 550e8400-e29b-41d4-a716-446655440000, pages 100-200-300.',
    'Dates 2024/01/15 and 1/2 cup; user@localhost is not an address.',
    'I live on Main Street; Rua das Flores is lovely and Oxford Street is busy at 5 pm.',
    'I walked 3 miles down the road. In 2019 Street Fighter came out. I have 2 Dr Peppers.',
    'Our Top 10 Best Place to visit list; we talk Via Zoom 3 times a week; I ran 5 Main Street blocks.',
  ])('%s', (text) => {
    const { findings, text: masked } = masker.mask(text);
    expect(findings).toEqual([]);
    expect(masked).toBe(text);
  });
});

describe('PiiMasker: placeholders, overlaps, options', () => {
  it('numbers placeholders per type; the same value keeps its placeholder', () => {
    const text = 'a@x.io wrote to b@y.io, then a@x.io again from 10.0.0.1';
    const r = masker.mask(text);
    expect(r.text).toBe('[EMAIL_1] wrote to [EMAIL_2], then [EMAIL_1] again from [IP_ADDRESS_1]');
    expect(r.findings.map((f) => f.replacement)).toEqual(['[EMAIL_1]', '[EMAIL_2]', '[EMAIL_1]', '[IP_ADDRESS_1]']);
    expect(r.findings.map((f) => f.start)).toEqual([0, 16, text.lastIndexOf('a@x.io'), text.indexOf('10.0')]);
    // A new call starts counting again.
    expect(masker.mask('b@y.io').text).toBe('[EMAIL_1]');
    expect(masker.detect(text)).toEqual(r.findings);
  });

  it('resolves overlaps deterministically: the most specific detector wins', () => {
    // A JWT after "Bearer": the JWT detector (more specific) takes the span, once.
    expect(found(`Authorization: Bearer ${JWT}`)).toEqual([`api_key:${JWT}`]);
    // An IPv4 address is also a dotted digit run; it is reported as an IP, not a phone.
    expect(found('host 192.168.100.200 up')).toEqual(['ip_address:192.168.100.200']);
    // A specific key inside an assignment is reported once, whole.
    const k = fake('sk-', 48);
    expect(found(`OPENAI_API_KEY=${k}`)).toEqual([`api_key:${k}`]);
    // Same input, same output.
    const text = `x ${JWT} 4111 1111 1111 1111 a@b.co +49 30 1234567 ::1`;
    expect(masker.mask(text)).toEqual(masker.mask(text));
  });

  it('finds a card even when a number follows it', () => {
    expect(found('4111 1111 1111 1111 2025')).toEqual(['credit_card:4111 1111 1111 1111']);
  });

  it('masks many kinds in one text and unmask() restores it', () => {
    const text = `Hi, I'm jane@corp.com, +33 6 12 34 56 78, IBAN FR14 2004 1010 0505 0001 3M02 606, ip 8.8.8.8`;
    const r = masker.mask(text);
    expect(r.findings.map((f) => f.type)).toEqual(['email', 'phone', 'iban', 'ip_address']);
    expect(unmask(r.text, r.findings)).toBe(text);
  });

  it('types limits detection to the chosen built-ins', () => {
    const m = new PiiMasker({ types: ['email'] });
    expect(found('a@b.co and 10.0.0.1', m)).toEqual(['email:a@b.co']);
  });

  it('supports custom patterns (with a value group, validation and priority)', () => {
    const m = new PiiMasker({
      custom: [
        { type: 'employee_id', pattern: /\bEMP-\d{6}\b/ },
        { type: 'ssn', pattern: /ssn[:\s]+(?<value>\d{3}-\d{2}-\d{4})/i, validate: (v) => !v.startsWith('000') },
      ],
      placeholder: (type, n) => `<${type}#${n}>`,
    });
    const r = m.mask('EMP-123456 has SSN: 123-45-6789, not ssn 000-12-3456, mail e@x.org');
    expect(r.findings.map((f) => `${f.type}:${f.value}`)).toEqual([
      'employee_id:EMP-123456',
      'ssn:123-45-6789',
      'email:e@x.org',
    ]);
    expect(r.text).toBe('<employee_id#1> has SSN: <ssn#1>, not ssn 000-12-3456, mail <email#1>');
  });

  it('rejects bad options with VALIDATION', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return isZerdaError(e) ? e.code : 'OTHER';
      }
      return undefined;
    };
    expect(code(() => new PiiMasker({ types: ['ssn'] }))).toBe('VALIDATION');
    expect(code(() => new PiiMasker({ custom: [{ type: '', pattern: /x/ }] }))).toBe('VALIDATION');
    expect(code(() => new PiiMasker({ custom: [{ type: 't', pattern: 'x' as never }] }))).toBe('VALIDATION');
    expect(code(() => masker.mask(42 as never))).toBe('VALIDATION');
  });

  it('finishes on adversarial inputs (no catastrophic backtracking; timings: test/bench/privacy.bench.ts)', () => {
    const inputs = [
      '1 '.repeat(50_000),
      '1'.repeat(100_000),
      'a.'.repeat(50_000) + '@',
      'a@' + 'b.'.repeat(50_000),
      'a:'.repeat(50_000),
      '+1 ('.repeat(20_000),
      'DE89 '.repeat(20_000),
      'token=' + 'x'.repeat(100_000),
    ];
    for (const text of inputs) expect(masker.mask(text).text.length, text.slice(0, 12)).toBeGreaterThan(0);
  });

  it('handles empty text and large inputs', () => {
    expect(masker.mask('')).toEqual({ text: '', findings: [] });
    const big = Array.from({ length: 2000 }, (_, i) => `user${i}@example.com said hi at 2024-01-${(i % 28) + 1}`).join(
      '\n',
    );
    const r = masker.mask(big);
    expect(r.findings).toHaveLength(2000);
    expect(new Set(r.findings.map((f) => f.replacement)).size).toBe(2000);
  });
});
