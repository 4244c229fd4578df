import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PBKDF2_ITERATIONS, createCipher } from './cipher.js';
import { codeOf } from '../testing/rejections.js';

// Low iteration count keeps the suite fast; one test below runs the real default.
const FAST = { iterations: 1000, allowWeakIterations: true } as const;
const HEADER_LEN = 38;

describe('createCipher (passphrase)', () => {
  it('round-trips bytes, text and JSON', async () => {
    const c = createCipher({ passphrase: 'correct horse', ...FAST });
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(await c.decrypt(await c.encrypt(bytes))).toEqual(bytes);
    expect(await c.decrypt(await c.encrypt(new Uint8Array()))).toEqual(new Uint8Array());
    expect(await c.decryptText(await c.encryptText('héllo 🦊 wörld'))).toBe('héllo 🦊 wörld');
    const value = { a: 1, b: ['x', null, true], c: { d: 'é' } };
    expect(await c.decryptJson(await c.encryptJson(value))).toEqual(value);
  });

  it('writes a self-describing envelope: a fresh cipher with only the passphrase decrypts it', async () => {
    const writer = createCipher({ passphrase: 'pw', iterations: 1234, allowWeakIterations: true });
    const env = await writer.encryptText('secret');
    expect(new TextDecoder().decode(env.subarray(0, 4))).toBe('ZRD1');
    expect(env[4]).toBe(1);
    expect(new DataView(env.buffer, env.byteOffset).getUint32(6)).toBe(1234);
    // The reader has a different default iteration count and its own salt; it reads both from the envelope.
    const reader = createCipher({ passphrase: 'pw', ...FAST });
    expect(await reader.decryptText(env)).toBe('secret');
  });

  it('uses a fresh IV per message and never leaks plaintext', async () => {
    const c = createCipher({ passphrase: 'pw', ...FAST });
    const a = await c.encryptText('same text same text');
    const b = await c.encryptText('same text same text');
    expect(a.length).toBe(HEADER_LEN + 19 + 16);
    expect(a.subarray(26, 38)).not.toEqual(b.subarray(26, 38));
    expect(a.subarray(HEADER_LEN)).not.toEqual(b.subarray(HEADER_LEN));
    expect(new TextDecoder().decode(a)).not.toContain('same text');
  });

  it('random 16-byte salt per instance; keyId names iterations and salt', async () => {
    const c1 = createCipher({ passphrase: 'pw', ...FAST });
    const c2 = createCipher({ passphrase: 'pw', ...FAST });
    expect(c1.keyId).toMatch(/^pbkdf2-sha256:1000:[0-9a-f]{32}$/);
    expect(c1.keyId).not.toBe(c2.keyId);
    const e1 = await c1.encrypt(new Uint8Array([1]));
    const e2 = await c1.encrypt(new Uint8Array([1]));
    expect(e1.subarray(10, 26)).toEqual(e2.subarray(10, 26));
    expect(c1.keyId.endsWith(Buffer.from(e1.subarray(10, 26)).toString('hex'))).toBe(true);
  });

  it('caches derived keys: PBKDF2 runs once for many messages (its cost: test/bench/privacy.bench.ts)', async () => {
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    try {
      const c = createCipher({ passphrase: 'pw', ...FAST });
      for (let i = 0; i < 6; i++) await c.encryptText('x');
      expect(await c.decryptText(await c.encryptText('y'))).toBe('y');
      expect(derive).toHaveBeenCalledTimes(1);
    } finally {
      derive.mockRestore();
    }
  });

  it('wrong passphrase -> DECRYPTION (a ZerdaError, not a DOMException)', async () => {
    const env = await createCipher({ passphrase: 'right', ...FAST }).encryptText('x');
    const wrong = createCipher({ passphrase: 'wrong', ...FAST });
    expect(await codeOf(wrong.decryptText(env))).toBe('DECRYPTION');
  });

  it('truncated, tampered or foreign data -> DECRYPTION', async () => {
    const c = createCipher({ passphrase: 'pw', ...FAST });
    const env = await c.encryptJson({ n: 42 });
    expect(await codeOf(c.decrypt(env.subarray(0, env.length - 1)))).toBe('DECRYPTION');
    expect(await codeOf(c.decrypt(env.subarray(0, 20)))).toBe('DECRYPTION');
    expect(await codeOf(c.decrypt(new Uint8Array()))).toBe('DECRYPTION');
    expect(await codeOf(c.decrypt(new TextEncoder().encode('plain text that is long enough to parse'.repeat(2))))).toBe(
      'DECRYPTION',
    );
    // Flip one bit at every position: header (AAD), IV, ciphertext and tag are all authenticated.
    for (let i = 0; i < env.length; i++) {
      const bad = env.slice();
      bad[i]! ^= 0x01;
      expect(await codeOf(c.decrypt(bad)), `byte ${i}`).toBe('DECRYPTION');
    }
    expect(await c.decryptJson(env)).toEqual({ n: 42 }); // the original is untouched
  });

  it('a tampered, huge iteration count is rejected without deriving', async () => {
    const c = createCipher({ passphrase: 'pw', ...FAST });
    const env = await c.encryptText('x');
    new DataView(env.buffer, env.byteOffset).setUint32(6, 0xffffffff);
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    try {
      expect(await codeOf(c.decrypt(env))).toBe('DECRYPTION');
      expect(derive).not.toHaveBeenCalled();
    } finally {
      derive.mockRestore();
    }
  });

  it('validates options and inputs with VALIDATION', async () => {
    expect(await codeOf(() => createCipher({ passphrase: '' }))).toBe('VALIDATION');
    expect(await codeOf(() => createCipher({ passphrase: 'pw', iterations: 1000 }))).toBe('VALIDATION');
    // A misspelt option must not silently fall back to the default.
    expect(await codeOf(() => createCipher({ passphrase: 'pw', iteration: 200_000 } as never))).toBe('VALIDATION');
    expect(await codeOf(() => createCipher({ passphrase: 'pw', iterations: 1.5, allowWeakIterations: true }))).toBe(
      'VALIDATION',
    );
    expect(await codeOf(() => createCipher({ passphrase: 'pw', iterations: 0, allowWeakIterations: true }))).toBe(
      'VALIDATION',
    );
    expect(await codeOf(() => createCipher({} as never))).toBe('VALIDATION');
    const c = createCipher({ passphrase: 'pw', ...FAST });
    expect(await codeOf(c.encrypt('text' as never))).toBe('VALIDATION');
    expect(await codeOf(c.encryptJson(undefined))).toBe('VALIDATION');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(await codeOf(c.encryptJson(cyclic))).toBe('VALIDATION');
  });

  it('NFC-normalises the passphrase', async () => {
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    const env = await createCipher({ passphrase: composed, ...FAST }).encryptText('ok');
    expect(await createCipher({ passphrase: decomposed, ...FAST }).decryptText(env)).toBe('ok');
  });

  it(`works at the default ${DEFAULT_PBKDF2_ITERATIONS} iterations`, async () => {
    const c = createCipher({ passphrase: 'a real passphrase' });
    expect(c.keyId).toContain(`:${DEFAULT_PBKDF2_ITERATIONS}:`);
    const env = await c.encryptText('default cost');
    expect(new DataView(env.buffer, env.byteOffset).getUint32(6)).toBe(DEFAULT_PBKDF2_ITERATIONS);
    expect(await c.decryptText(env)).toBe('default cost');
  });
});

describe('createCipher (CryptoKey)', () => {
  const genKey = () =>
    crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']) as Promise<CryptoKey>;

  it('round-trips with a supplied key; another key fails with DECRYPTION', async () => {
    const key = await genKey();
    const c = createCipher({ key, keyId: 'k1' });
    expect(c.keyId).toBe('key:k1');
    const env = await c.encryptText('hi');
    expect(env[5]).toBe(0);
    expect(await createCipher({ key }).decryptText(env)).toBe('hi');
    expect(await codeOf(createCipher({ key: await genKey() }).decryptText(env))).toBe('DECRYPTION');
  });

  it('passphrase and key envelopes are not interchangeable', async () => {
    const keyC = createCipher({ key: await genKey() });
    const passC = createCipher({ passphrase: 'pw', ...FAST });
    expect(await codeOf(passC.decrypt(await keyC.encryptText('a')))).toBe('DECRYPTION');
    expect(await codeOf(keyC.decrypt(await passC.encryptText('a')))).toBe('DECRYPTION');
  });

  it('rejects keys of the wrong algorithm or usages', async () => {
    const hmac = (await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])) as CryptoKey;
    expect(await codeOf(() => createCipher({ key: hmac }))).toBe('VALIDATION');
    const encOnly = (await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
    ])) as CryptoKey;
    expect(await codeOf(() => createCipher({ key: encOnly }))).toBe('VALIDATION');
    const both = { key: await genKey(), passphrase: 'x' } as never;
    expect(await codeOf(() => createCipher(both))).toBe('VALIDATION');
  });
});

describe('associated data', () => {
  it('binds an envelope to its context: other or missing associated data -> DECRYPTION', async () => {
    const c = createCipher({ passphrase: 'pw', ...FAST });
    const ad = new TextEncoder().encode('tenant-a\u0000record-1');
    const sealed = await c.encryptJson({ n: 1 }, ad);
    expect(await c.decryptJson(sealed, ad)).toEqual({ n: 1 });
    expect(await codeOf(c.decryptJson(sealed, new TextEncoder().encode('tenant-b\u0000record-1')))).toBe('DECRYPTION');
    expect(await codeOf(c.decryptJson(sealed))).toBe('DECRYPTION');
    expect(await codeOf(c.decryptJson(await c.encryptJson({ n: 1 }), ad))).toBe('DECRYPTION');
    expect(await codeOf(c.encrypt(new Uint8Array(1), 'ad' as never))).toBe('VALIDATION');
  });
});
