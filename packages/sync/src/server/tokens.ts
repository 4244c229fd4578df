import { invalid } from '@zerda/core/adapter';
import type { SyncPrincipal } from './handler.js';

/** A token the `zerda-sync` bin accepts: the tenants it may sync and, optionally, when it expires (epoch ms). */
export interface TokenGrant {
  tenants: string[];
  expiresAt?: number;
}

/**
 * A `verify` for {@link createSyncHandler} over a fixed table of tokens (what `zerda-sync` reads
 * from `ZERDA_SYNC_TOKENS`): unknown and expired tokens are refused.
 */
export function tokenVerifier(
  grants: Record<string, TokenGrant>,
  now: () => number = Date.now,
): (token: string) => SyncPrincipal | null {
  if (typeof grants !== 'object' || grants === null)
    invalid('tokens', 'an object of token → { tenants, expiresAt? }', grants);
  for (const [t, g] of Object.entries(grants))
    if (!Array.isArray(g?.tenants) || !g.tenants.every((x) => typeof x === 'string'))
      invalid(`tokens.${t.slice(0, 4)}…`, '{ tenants: string[] }', g);
  return (token) => {
    const g = Object.hasOwn(grants, token) ? grants[token] : undefined;
    if (!g || (g.expiresAt !== undefined && now() >= g.expiresAt)) return null;
    return { tenants: [...g.tenants] };
  };
}
