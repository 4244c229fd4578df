import { describe, expect, it } from 'vitest';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { retentionBoost, UserProfileManager, validateProfile } from './profile-manager.js';
import { codeOf } from '../testing/rejections.js';

function setup() {
  const clock = { now: 1000 };
  const storage = new InMemoryStorage();
  const pm = new UserProfileManager({ storage, clock: () => clock.now });
  return { clock, storage, pm };
}

describe('UserProfileManager', () => {
  it('returns a default profile without storing it', async () => {
    const { pm, storage } = setup();
    const p = await pm.get('t', 'u');
    expect(p).toEqual({
      tenantId: 't',
      userId: 'u',
      createdAt: 1000,
      updatedAt: 1000,
      interactionCount: 0,
      topics: {},
      memoryRetentionBoost: 0,
      attributes: {},
    });
    expect(await storage.getProfile('t', 'u')).toBeUndefined();
  });

  it('counts interactions and topics and grows the retention boost', async () => {
    const { pm, clock } = setup();
    await pm.update('t', 'u', { topics: ['Coffee', ' coffee ', 'tea'] });
    clock.now = 2000;
    const p = await pm.update('t', 'u', { text: 'Coffee brewing: espresso coffee and pour-over coffee.' });
    expect(p.interactionCount).toBe(2);
    expect(p.topics.coffee).toBe(2);
    expect(p.topics.tea).toBe(1);
    expect(p.topics['espresso coffee']).toBe(1);
    expect(p.createdAt).toBe(1000);
    expect(p.updatedAt).toBe(2000);
    expect(p.memoryRetentionBoost).toBeCloseTo(0.02 * Math.log2(3), 12);
    expect(await pm.get('t', 'u')).toEqual(p);
  });

  it('serialises concurrent updates so no interaction is lost', async () => {
    const { pm } = setup();
    await Promise.all(Array.from({ length: 20 }, () => pm.update('t', 'u', { topics: ['x'] })));
    const p = await pm.get('t', 'u');
    expect(p.interactionCount).toBe(20);
    expect(p.topics.x).toBe(20);
  });

  it('keeps profiles per (tenant, user)', async () => {
    const { pm } = setup();
    await pm.update('a', 'u');
    await pm.update('b', 'u');
    await pm.update('b', 'u');
    expect((await pm.get('a', 'u')).interactionCount).toBe(1);
    expect((await pm.get('b', 'u')).interactionCount).toBe(2);
    expect((await pm.list('b')).map((p) => p.userId)).toEqual(['u']);
  });

  it('merges attributes; null removes one', async () => {
    const { pm } = setup();
    await pm.setAttributes('t', 'u', { lang: 'fr', tone: 'formal' });
    const p = await pm.setAttributes('t', 'u', { tone: null, units: 'metric' });
    expect(p.attributes).toEqual({ lang: 'fr', units: 'metric' });
    expect(p.interactionCount).toBe(0);
  });

  it('rejects bad input with VALIDATION and writes nothing', async () => {
    const { pm, storage } = setup();
    expect(await codeOf(pm.update('', 'u'))).toBe('VALIDATION');
    expect(await codeOf(pm.update('t', 'u', { topics: [1 as never] }))).toBe('VALIDATION');
    expect(await codeOf(pm.setAttributes('t', 'u', { f: (() => 0) as never }))).toBe('VALIDATION');
    expect(await storage.listProfiles('t')).toEqual([]);
  });
});

describe('profile helpers', () => {
  it('retentionBoost is clamped to [-0.2, 0.3]', () => {
    expect(retentionBoost(0)).toBe(0);
    expect(retentionBoost(1)).toBeCloseTo(0.02, 12);
    expect(retentionBoost(1e12)).toBe(0.3);
  });

  it('validateProfile rejects an out-of-range boost', () => {
    const p = {
      tenantId: 't',
      userId: 'u',
      createdAt: 0,
      updatedAt: 0,
      interactionCount: 0,
      topics: {},
      memoryRetentionBoost: 0.9,
      attributes: {},
    };
    expect(() => validateProfile(p)).toThrow(/memoryRetentionBoost/);
  });
});
