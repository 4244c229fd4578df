/**
 * Privacy speed (moved out of the unit tests, which check behaviour only): PII masking time on
 * adversarial and large inputs (linear, no catastrophic backtracking), and the cost of deriving an
 * encryption key from a passphrase against the cached key of later messages. Prints figures;
 * never gates CI. Run: `npx tsx --conditions=@zerda/source test/bench/privacy.bench.ts`.
 */
import { createCipher, DEFAULT_PBKDF2_ITERATIONS, PiiMasker } from '@zerda/core';

function ms(t0: number): string {
  return `${(performance.now() - t0).toFixed(1)} ms`;
}

const masker = new PiiMasker();
const adversarial: [string, string][] = [
  ['"1 " x 50k', '1 '.repeat(50_000)],
  ['"1" x 100k', '1'.repeat(100_000)],
  ['"a." x 50k + @', 'a.'.repeat(50_000) + '@'],
  ['a@ + "b." x 50k', 'a@' + 'b.'.repeat(50_000)],
  ['"a:" x 50k', 'a:'.repeat(50_000)],
  ['"+1 (" x 20k', '+1 ('.repeat(20_000)],
  ['"DE89 " x 20k', 'DE89 '.repeat(20_000)],
  ['token= + 100k', 'token=' + 'x'.repeat(100_000)],
];
console.log('PII masking, adversarial inputs (each should stay well under a second):');
for (const [label, text] of adversarial) {
  const t0 = performance.now();
  masker.mask(text);
  console.log(`  ${label.padEnd(18)} ${ms(t0)}`);
}
const big = Array.from({ length: 2000 }, (_, i) => `user${i}@example.com said hi at 2024-01-${(i % 28) + 1}`).join(
  '\n',
);
let t0 = performance.now();
const findings = masker.mask(big).findings.length;
console.log(`PII masking, 2,000 lines with ${findings} findings: ${ms(t0)}`);

const cipher = createCipher({ passphrase: 'correct horse battery staple', iterations: DEFAULT_PBKDF2_ITERATIONS });
t0 = performance.now();
await cipher.encryptText('first message');
console.log(`Encryption, first message (PBKDF2, ${DEFAULT_PBKDF2_ITERATIONS} iterations): ${ms(t0)}`);
t0 = performance.now();
for (let i = 0; i < 100; i++) await cipher.encryptText(`message ${i}`);
console.log(`Encryption, 100 more messages (cached key): ${ms(t0)}`);
const wrong = (await cipher.encryptText('x')).slice();
new DataView(wrong.buffer).setUint32(6, 0xffffffff);
t0 = performance.now();
await cipher.decrypt(wrong).catch(() => undefined);
console.log(`Decryption of a header claiming 2^32 iterations (rejected before deriving): ${ms(t0)}`);
