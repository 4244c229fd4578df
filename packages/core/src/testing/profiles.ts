import type { UserProfile } from '../model/types.js';

/**
 * A complete, valid profile for tests: one interaction at time 1, no topics or attributes, with
 * `overrides` laid over it. Saves each suite writing the eight fields out by hand.
 */
export function testProfile(tenantId: string, userId: string, overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    tenantId,
    userId,
    createdAt: 1,
    updatedAt: 1,
    interactionCount: 1,
    topics: {},
    memoryRetentionBoost: 0,
    attributes: {},
    ...overrides,
  };
}
