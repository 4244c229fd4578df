import { describe, expect, it } from 'vitest';
import { AccessController, type Permission, type Role } from './access-controller.js';
import { isZerdaError } from '../model/errors.js';
import { thrownCode as codeOf } from '../testing/rejections.js';

describe('AccessController', () => {
  const matrix: [Role, Permission[], Permission[]][] = [
    ['reader', ['read'], ['write', 'delete', 'admin']],
    ['writer', ['read', 'write'], ['delete', 'admin']],
    ['admin', ['read', 'write', 'delete', 'admin'], []],
  ];

  it.each(matrix)('role %s grants exactly its permissions', (role, allowed, denied) => {
    const ac = new AccessController();
    ac.grant('u1', 't1', role);
    for (const p of allowed) expect(ac.can('u1', 't1', p)).toBe(true);
    for (const p of denied) {
      expect(ac.can('u1', 't1', p)).toBe(false);
      expect(codeOf(() => ac.assert('u1', 't1', p))).toBe('ACCESS_DENIED');
    }
  });

  it('fails closed: no role means no permission, in any tenant', () => {
    const ac = new AccessController();
    ac.grant('u1', 't1', 'admin');
    expect(ac.can('u1', 't2', 'read')).toBe(false);
    expect(ac.can('u2', 't1', 'read')).toBe(false);
    expect(codeOf(() => ac.assert('u2', 't1', 'read'))).toBe('ACCESS_DENIED');
  });

  it('names user, tenant and missing permission in the denial', () => {
    const ac = new AccessController();
    ac.grant('alice', 'acme', 'reader');
    try {
      ac.assert('alice', 'acme', 'delete');
      expect.unreachable();
    } catch (e) {
      expect(isZerdaError(e, 'ACCESS_DENIED')).toBe(true);
      const msg = (e as Error).message;
      expect(msg).toContain('alice');
      expect(msg).toContain('acme');
      expect(msg).toContain('delete');
      expect(msg).toContain('reader');
    }
    expect(() => ac.assert('alice', 'acme', 'read')).not.toThrow();
  });

  it('rejects unknown roles and permissions with VALIDATION and changes nothing', () => {
    const ac = new AccessController();
    ac.grant('u1', 't1', 'reader');
    expect(codeOf(() => ac.grant('u1', 't1', 'owner' as Role))).toBe('VALIDATION');
    expect(ac.roleOf('u1', 't1')).toBe('reader');
    expect(codeOf(() => ac.can('u1', 't1', 'execute' as Permission))).toBe('VALIDATION');
    expect(codeOf(() => ac.grant('', 't1', 'reader'))).toBe('VALIDATION');
    expect(codeOf(() => ac.grant('u1', '  ', 'reader'))).toBe('VALIDATION');
  });

  it('re-granting replaces the role; revoke removes it', () => {
    const ac = new AccessController();
    ac.grant('u1', 't1', 'admin');
    ac.grant('u1', 't1', 'reader');
    expect(ac.can('u1', 't1', 'write')).toBe(false);
    expect(ac.revoke('u1', 't1')).toBe(true);
    expect(ac.revoke('u1', 't1')).toBe(false);
    expect(ac.roleOf('u1', 't1')).toBeUndefined();
    expect(ac.can('u1', 't1', 'read')).toBe(false);
  });

  it('lists grants per tenant, sorted by user', () => {
    const ac = new AccessController();
    ac.grant('zoe', 't1', 'writer');
    ac.grant('adam', 't1', 'reader');
    ac.grant('adam', 't2', 'admin');
    expect(ac.list('t1')).toEqual([
      { userId: 'adam', tenantId: 't1', role: 'reader' },
      { userId: 'zoe', tenantId: 't1', role: 'writer' },
    ]);
    expect(ac.list('t2')).toEqual([{ userId: 'adam', tenantId: 't2', role: 'admin' }]);
    expect(ac.list('t3')).toEqual([]);
  });
});
