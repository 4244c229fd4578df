import { ZerdaError, invalid } from '../model/errors.js';
import { checkId } from '../model/ids.js';

/** Roles a user can hold in a tenant. */
export type Role = 'reader' | 'writer' | 'admin';

/** Permissions checked by {@link AccessController.can}. */
export type Permission = 'read' | 'write' | 'delete' | 'admin';

/** The permissions each role carries. A role never implies anything not listed here. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = Object.freeze({
  reader: Object.freeze(['read'] as const),
  writer: Object.freeze(['read', 'write'] as const),
  admin: Object.freeze(['read', 'write', 'delete', 'admin'] as const),
});

/** All known roles. */
export const ROLES: readonly Role[] = Object.freeze(['reader', 'writer', 'admin'] as const);

/** All known permissions. */
export const PERMISSIONS: readonly Permission[] = Object.freeze(['read', 'write', 'delete', 'admin'] as const);

/** One user's role in one tenant, as returned by {@link AccessController.list}. */
export interface Grant {
  userId: string;
  tenantId: string;
  role: Role;
}

function checkRole(value: unknown): Role {
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value))
    invalid('role', `one of ${ROLES.join(', ')}`, value);
  return value as Role;
}

function checkPermission(value: unknown): Permission {
  if (typeof value !== 'string' || !(PERMISSIONS as readonly string[]).includes(value))
    invalid('permission', `one of ${PERMISSIONS.join(', ')}`, value);
  return value as Permission;
}

/**
 * Role-based access control per `(tenantId, userId)`. Fail closed: a user with no grant in a
 * tenant can do nothing there. One role per user and tenant; granting again replaces it.
 */
export class AccessController {
  // tenantId -> userId -> role
  #grants = new Map<string, Map<string, Role>>();

  /** Give `userId` the `role` in `tenantId` (replacing any previous role). Unknown role -> `VALIDATION`. */
  grant(userId: string, tenantId: string, role: Role): void {
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    checkRole(role);
    let users = this.#grants.get(tenantId);
    if (!users) this.#grants.set(tenantId, (users = new Map()));
    users.set(userId, role);
  }

  /** Remove the user's role in the tenant. Returns true when there was one. */
  revoke(userId: string, tenantId: string): boolean {
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    const users = this.#grants.get(tenantId);
    if (!users) return false;
    const had = users.delete(userId);
    if (users.size === 0) this.#grants.delete(tenantId);
    return had;
  }

  /** The user's role in the tenant, or `undefined` when none was granted. */
  roleOf(userId: string, tenantId: string): Role | undefined {
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    return this.#grants.get(tenantId)?.get(userId);
  }

  /** True when the user's role in the tenant carries `permission`. No role -> false. */
  can(userId: string, tenantId: string, permission: Permission): boolean {
    checkPermission(permission);
    const role = this.roleOf(userId, tenantId);
    return role !== undefined && ROLE_PERMISSIONS[role].includes(permission);
  }

  /**
   * Throw `ACCESS_DENIED` unless the user holds `permission` in the tenant. The message names
   * the user, the tenant, the missing permission and the role held (if any).
   */
  assert(userId: string, tenantId: string, permission: Permission): void {
    if (this.can(userId, tenantId, permission)) return;
    const role = this.roleOf(userId, tenantId);
    const held = role === undefined ? 'no role' : `role "${role}"`;
    throw new ZerdaError(
      'ACCESS_DENIED',
      `Access denied: user "${userId}" lacks permission "${permission}" in tenant "${tenantId}" (has ${held})`,
      { details: { userId, tenantId, permission, role: role ?? null } },
    );
  }

  /** Grants in the tenant, sorted by user id. */
  list(tenantId: string): Grant[] {
    checkId('tenantId', tenantId);
    const users = this.#grants.get(tenantId);
    if (!users) return [];
    return [...users]
      .map(([userId, role]) => ({ userId, tenantId, role }))
      .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  }
}
