/** One scored item. */
export interface Scored {
  id: string;
  score: number;
}

/** True when `a` ranks below `b`: lower score, or equal score and larger id (ids ascend on ties). */
function worse(a: Scored, b: Scored): boolean {
  return a.score < b.score || (a.score === b.score && a.id > b.id);
}

/**
 * Keeps the best `k` of a stream of scored items in a bounded min-heap: O(n log k) and O(k) memory,
 * never a full sort of the stream. Ties break by `id` ascending so results are deterministic.
 */
export class TopK {
  readonly #k: number;
  readonly #heap: Scored[] = [];

  /** @param k how many to keep (a non-negative integer). */
  constructor(k: number) {
    this.#k = k;
  }

  /** Items kept so far. */
  get size(): number {
    return this.#heap.length;
  }

  /**
   * The score an item must beat to enter, or `-Infinity` while fewer than `k` are kept. Lets a
   * caller skip building an item that cannot enter.
   */
  get threshold(): number {
    return this.#heap.length < this.#k ? -Infinity : this.#heap[0]!.score;
  }

  /** Offer an item; kept only if it ranks among the best `k` so far. */
  push(id: string, score: number): void {
    if (this.#k <= 0) return;
    const heap = this.#heap;
    const item = { id, score };
    if (heap.length < this.#k) {
      heap.push(item);
      this.#siftUp(heap.length - 1);
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      this.#siftDown(0);
    }
  }

  /** The kept items, best first. Does not empty the heap. */
  sorted(): Scored[] {
    return [...this.#heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  #siftUp(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const heap = this.#heap;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < n && worse(heap[l]!, heap[smallest]!)) smallest = l;
      if (r < n && worse(heap[r]!, heap[smallest]!)) smallest = r;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
}

/** True when `k` is a valid result count: a non-negative integer. */
export function isCount(k: unknown): k is number {
  return typeof k === 'number' && Number.isInteger(k) && k >= 0;
}
