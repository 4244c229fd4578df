/**
 * mulberry32: a small, fast, seeded PRNG with numbers in [0, 1), so a test or benchmark that draws
 * from it sees the same data on every run (and a failure reproduces).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A vector of `dim` coordinates drawn uniformly from [-1, 1), scaled to unit length. */
export function randomUnitVector(rand: () => number, dim: number): Float32Array {
  const v = Float32Array.from({ length: dim }, () => rand() * 2 - 1);
  let n = 0;
  for (const x of v) n += x * x;
  const inv = 1 / Math.sqrt(n);
  for (let j = 0; j < dim; j++) v[j]! *= inv;
  return v;
}
