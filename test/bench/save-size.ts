/**
 * Save cost against turn size (issue 24): `saveInteraction` of one turn from 1 KB to 1 MB of
 * real chat text (LoCoMo turns, with an e-mail address and a phone number every ~2 KB so the PII
 * masker has work), default configuration apart from `limits.turnChars` raised to 1,000,000,
 * InMemoryStorage and the hashing embedder (the bundled model truncates input at 128 tokens, so
 * its cost does not grow with the turn). Prints the median per size (wall time, and the
 * process's CPU time, which a loaded machine inflates less), the CPU cost per KB (flat or falling
 * when the path is linear) and its ratio to the 1 KB figure; never gates CI.
 *
 * `--noise punct,lower` (or `all`; `./chat-noise.ts`) saves the turns as typed in a chat app: a
 * long run with no full stop is the worst case of reading typed chat (`language/chat-text.ts`).
 *
 * Run: `LOCOMO_PATH=../shared/bench/data/locomo10.json node --conditions=@zerda/source --import tsx test/bench/save-size.ts [--noise all]`
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { HashEmbedder, InMemoryStorage, MemoryManager } from '@zerda/core';
import { chatNoise, parseNoise } from './chat-noise.js';

const noise = parseNoise(parseArgs({ options: { noise: { type: 'string' } } }).values.noise);

const path = process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json';
const convs = JSON.parse(readFileSync(path, 'utf8')) as { conversation: Record<string, unknown> }[];
const lines: string[] = [];
for (const c of convs)
  for (const [k, v] of Object.entries(c.conversation))
    if (/^session_\d+$/.test(k) && Array.isArray(v)) for (const t of v as { text: string }[]) lines.push(t.text);

/** About `chars` characters of chat text, PII sprinkled in. */
function text(chars: number, offset: number): string {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    let l = lines[(offset + i) % lines.length]!;
    if (i % 20 === 7)
      l += ` Mail me at friend${i}@example.com or call +1 415 555 01${String(i % 100).padStart(2, '0')}.`;
    out.push(l);
    n += l.length + 1;
  }
  return chatNoise(out.join(' ').slice(0, chars), noise);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const mgr = await MemoryManager.create({
  storage: new InMemoryStorage(),
  embedder: new HashEmbedder({ dim: 256 }),
  owner: 'bench',
  config: { limits: { turnChars: 1_000_000 } },
});
// Warm the JIT on small turns first.
for (let i = 0; i < 20; i++) await mgr.saveInteraction('bench', 't', text(2_000, i * 50), 'ok');

const sizes = [1_000, 4_000, 16_000, 64_000, 100_000, 256_000, 1_000_000];
console.log(
  `save-size: load average ${loadavg()[0]!.toFixed(2)}, node ${process.version}${noise.size ? `, noise ${[...noise].join(',')}` : ''}`,
);
console.log('| turn input | median ms (wall) | median ms (CPU) | CPU ms per KB | × the 1 KB cost per KB | runs |');
console.log('|---|---|---|---|---|---|');
let perKb1: number | undefined;
for (const size of sizes) {
  const runs = size >= 256_000 ? 3 : size >= 64_000 ? 5 : 15;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const input = text(size, r * 997 + size);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await mgr.saveInteraction('bench', 't', input, 'Thanks, noted.');
    await mgr.flush();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const m = median(cpu);
  const perKb = m / (size / 1000);
  perKb1 ??= perKb;
  console.log(
    `| ${(size / 1000).toLocaleString('en')} K chars | ${median(wall).toFixed(1)} | ${m.toFixed(1)} | ${perKb.toFixed(3)} | ${(perKb / perKb1).toFixed(2)} | ${runs} |`,
  );
}
console.log(`load average after: ${loadavg()[0]!.toFixed(2)}`);
await mgr.close();
