import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('KeyedMutex', () => {
  it('runs tasks of one key one at a time, in order, past failures', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    let release!: () => void;
    const first = m.run('a', async () => {
      log.push('1 start');
      await new Promise<void>((r) => (release = r));
      log.push('1 end');
      return 1;
    });
    const second = m.run('a', () => {
      log.push('2');
      throw new Error('boom');
    });
    const third = m.run('a', () => {
      log.push('3');
      return 3;
    });
    await tick();
    expect(log).toEqual(['1 start']);
    expect(m.busy('a')).toBe(true);
    release();
    expect(await first).toBe(1);
    await expect(second).rejects.toThrow('boom');
    expect(await third).toBe(3);
    expect(log).toEqual(['1 start', '1 end', '2', '3']);
    await m.idle('a');
    await tick();
    expect(m.busy('a')).toBe(false);
  });

  it('lets different keys run concurrently; idle waits for the queued tasks of its key', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    let release!: () => void;
    void m.run('a', () => new Promise<void>((r) => (release = r)).then(() => log.push('a')));
    await m.run('b', () => log.push('b'));
    expect(log).toEqual(['b']);
    const idle = m.idle('a').then(() => log.push('idle'));
    await tick();
    expect(log).toEqual(['b']);
    release();
    await idle;
    expect(log).toEqual(['b', 'a', 'idle']);
  });
});
