import { ZerdaError } from '@zerda/core';

/**
 * A value as an SQL literal, for the statements sent as one simple-protocol message (which has no
 * bind parameters): strings are quoted (`'…'`, or `E'…'` when they hold a backslash), arrays become
 * quoted array literals, numbers must be finite. PostgreSQL text cannot hold U+0000 (and the
 * protocol would end the message there): such a value is `VALIDATION`, as a parameter would be.
 */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ZerdaError('VALIDATION', `Expected a finite number in SQL, got ${v}`);
    return v < 0 || Object.is(v, -0) ? `(${v})` : String(v);
  }
  if (typeof v === 'string') return quote(v);
  if (Array.isArray(v)) return quote(arrayText(v));
  throw new ZerdaError('VALIDATION', `Cannot send a ${typeof v} as an SQL literal`);
}

/**
 * `sql` with each `$n` replaced by `sqlLiteral(params[n - 1])`. For Zerda's own statements only:
 * they never hold a `$` elsewhere (no dollar quoting, no `$` in identifiers or literals).
 */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`no parameter $${n}`);
    return sqlLiteral(params[i]);
  });
}

function quote(s: string): string {
  if (s.includes('\u0000'))
    throw new ZerdaError('VALIDATION', 'PostgreSQL text cannot hold U+0000 (a NUL character)', {
      details: { sqlState: '22021' },
    });
  const body = s.replace(/'/g, "''");
  return s.includes('\\') ? `E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}

/** PostgreSQL's array input form: `{"a","b",NULL,1}` (elements quoted, `"` and `\` escaped). */
function arrayText(items: readonly unknown[]): string {
  const parts = items.map((x) => {
    if (x === null || x === undefined) return 'NULL';
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) throw new ZerdaError('VALIDATION', `Expected a finite number in SQL, got ${x}`);
      return String(x);
    }
    if (typeof x === 'string') return `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    throw new ZerdaError('VALIDATION', `Cannot send a ${typeof x} in an SQL array literal`);
  });
  return `{${parts.join(',')}}`;
}
