import type { IncomingMessage, ServerResponse } from 'node:http';
import { ZerdaError, isZerdaError } from '@zerda/core';
import { checkId, invalid, isHlc } from '@zerda/core/adapter';
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES } from '../protocol.js';
import type { KeyCheck, PullResponse, PushRequest, WireRecord } from '../protocol.js';
import type { Quota, RecordStore } from './record-store.js';

/** What a verified token may do. */
export interface SyncPrincipal {
  /** Tenants whose records this token may push and pull. */
  tenants: string[];
}

/** Options of {@link createSyncHandler}. */
export interface SyncHandlerOptions {
  store: RecordStore;
  /**
   * Check a bearer token: the principal, or `null` (or a throw) for an unknown or expired token
   * (401 `ACCESS_DENIED`). Called on every request.
   */
  verify: (token: string) => SyncPrincipal | null | Promise<SyncPrincipal | null>;
  /** Most bytes of a request body (413 beyond). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Most records of one push or pull. Default 500. */
  maxBatch?: number;
  /** Called after a push stored new records of a tenant (trusted-server mode: `trustedReplica`'s `notify`). */
  onAppend?: (tenantId: string, accepted: number) => void;
  /** Per-tenant quota (507 `QUOTA_EXCEEDED`), or a function giving each tenant's. */
  quota?: Quota | ((tenantId: string) => Quota | undefined);
  /**
   * Cross-origin access for web apps served from another origin than the sync server. Default:
   * none (no CORS headers; a page on another origin cannot sync).
   */
  cors?: SyncCorsOptions;
}

/** Which other origins may call the sync server from a browser ({@link SyncHandlerOptions.cors}). */
export interface SyncCorsOptions {
  /**
   * The allowed origins, each `scheme://host[:port]` exactly as a browser sends it in `Origin`
   * (`https://app.example.com`), or `'*'` for any origin. Auth is by bearer token, never by
   * cookie, so no credentials mode is involved; a page of an allowed origin still needs a token.
   */
  origins: readonly string[] | '*';
  /** How long a browser may cache a preflight's answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

const ROUTE = /^\/v1\/tenants\/([^/]+)\/(records|key)$/;

/**
 * A request handler for Node's `http.createServer` (or any framework that hands over Node's
 * request and response): the sync protocol of `@zerda/sync` over a {@link RecordStore}. Every
 * request needs a bearer token that `verify` accepts for the tenant in its path; a tenant's records
 * are never served to another. The server stores what devices push and never reads it: in
 * end-to-end mode it holds only ciphertext.
 */
export function createSyncHandler(
  options: SyncHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  if (typeof options?.store !== 'object' || options.store === null) invalid('store', 'a RecordStore', options?.store);
  if (typeof options.verify !== 'function')
    invalid('verify', 'a function (token) => { tenants } | null', options.verify);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const quotaFor = typeof options.quota === 'function' ? options.quota : () => options.quota as Quota | undefined;
  const store = options.store;
  const cors = options.cors === undefined ? undefined : corsPolicy(options.cors);

  return async (req, res) => {
    try {
      if (cors?.(req, res)) return;
      const url = new URL(req.url ?? '/', 'http://localhost');
      const m = ROUTE.exec(url.pathname);
      if (!m) throw new ZerdaError('NOT_FOUND', `No such sync endpoint: ${req.method} ${url.pathname}`);
      const tenantId = decodeURIComponent(m[1]!);
      checkId('tenantId', tenantId);
      await authorize(options.verify, req.headers.authorization, tenantId);
      if (m[2] === 'records' && req.method === 'POST') {
        const body = (await readJson(req, maxBody)) as Partial<PushRequest>;
        const records = checkRecords(body?.records, maxBatch);
        const stored = await store.append(tenantId, records, quotaFor(tenantId));
        send(res, 200, stored);
        try {
          if (stored.accepted > 0) options.onAppend?.(tenantId, stored.accepted);
        } catch {
          // The push is stored and answered; a listener's failure is its own.
        }
      } else if (m[2] === 'records' && req.method === 'GET') {
        const after = Number(url.searchParams.get('after') ?? '0');
        if (!Number.isSafeInteger(after) || after < 0) invalid('after', 'a cursor from an earlier pull', after);
        const limit = Number(url.searchParams.get('limit') ?? String(maxBatch));
        if (!Number.isInteger(limit) || limit < 1 || limit > maxBatch)
          invalid('limit', `an integer in [1, ${maxBatch}]`, limit);
        const exclude = url.searchParams.get('exclude');
        const page = await store.list(tenantId, after, limit);
        const last = page.records.at(-1)?.seq ?? after;
        const out: PullResponse = {
          records: page.records.filter((r) => r.device !== exclude),
          cursor: String(last),
          more: page.remaining > 0,
          remaining: page.remaining,
        };
        send(res, 200, out);
      } else if (m[2] === 'key' && req.method === 'GET') {
        const check = await store.getKey(tenantId);
        if (check === undefined) throw new ZerdaError('NOT_FOUND', `Tenant ${tenantId} has no key check yet`);
        send(res, 200, { check } satisfies KeyCheck);
      } else if (m[2] === 'key' && req.method === 'PUT') {
        const body = (await readJson(req, maxBody)) as Partial<KeyCheck>;
        if (typeof body?.check !== 'string' || body.check.length === 0 || body.check.length > 4096)
          invalid('check', 'a base64 key check');
        send(res, 200, { check: await store.putKey(tenantId, body.check) } satisfies KeyCheck);
      } else throw new ZerdaError('NOT_FOUND', `No such sync endpoint: ${req.method} ${url.pathname}`);
    } catch (e) {
      const err = isZerdaError(e) ? e : new ZerdaError('INTERNAL', 'The sync server failed', { cause: e });
      const status = STATUS[err.code] ?? (err.details?.status as number | undefined) ?? 500;
      if (!res.headersSent)
        send(res, (err.details?.status as number | undefined) ?? status, {
          error: { code: err.code, message: err.message },
        });
      else res.destroy();
    }
  };
}

const CORS_METHODS = 'GET, POST, PUT';
const CORS_HEADERS = 'authorization, content-type';

/**
 * The CORS policy of `options` as a step run before each request: it adds the allow headers for an
 * allowed `Origin` (on errors too, so the page reads the typed error) and answers a preflight
 * (`OPTIONS` with `Access-Control-Request-Method`) by itself — 204 for an allowed origin, 403
 * `ACCESS_DENIED` without allow headers for another. True when it answered the request.
 */
function corsPolicy(options: SyncCorsOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const any = options.origins === '*';
  if (!any && (!Array.isArray(options.origins) || options.origins.some((o) => !isOrigin(o))))
    invalid('cors.origins', "'*' or an array of origins such as https://app.example.com", options.origins);
  const maxAge = options.maxAgeSeconds ?? 600;
  if (!Number.isInteger(maxAge) || maxAge < 0) invalid('cors.maxAgeSeconds', 'a whole number of seconds', maxAge);
  const allowed = new Set(any ? [] : options.origins);
  return (req, res) => {
    const origin = req.headers.origin;
    const ok = origin !== undefined && (any || allowed.has(origin));
    // Responses differ by Origin: a cache must not hand one origin's answer to another.
    if (!any) res.setHeader('vary', 'Origin');
    if (ok) res.setHeader('access-control-allow-origin', any ? '*' : origin);
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
    if (!ok) {
      send(res, 403, {
        error: { code: 'ACCESS_DENIED', message: `Origin ${origin ?? '(none)'} may not call this sync server` },
      });
      return true;
    }
    res.writeHead(204, {
      'access-control-allow-methods': CORS_METHODS,
      'access-control-allow-headers': CORS_HEADERS,
      'access-control-max-age': String(maxAge),
      'content-length': '0',
    });
    res.end();
    return true;
  };
}

function isOrigin(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

const STATUS: Partial<Record<ZerdaError['code'], number>> = {
  VALIDATION: 400,
  ACCESS_DENIED: 403,
  NOT_FOUND: 404,
  QUOTA_EXCEEDED: 507,
  CONFLICT: 409,
};

async function authorize(verify: SyncHandlerOptions['verify'], header: string | undefined, tenantId: string) {
  const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  const denied = (why: string) => new ZerdaError('ACCESS_DENIED', why, { details: { status: 401 } });
  if (!token) throw denied('A bearer token is required');
  let principal: SyncPrincipal | null;
  try {
    principal = await verify(token);
  } catch {
    principal = null;
  }
  if (!principal || !Array.isArray(principal.tenants)) throw denied('The token is unknown or has expired');
  if (!principal.tenants.includes(tenantId))
    throw new ZerdaError('ACCESS_DENIED', `This token may not sync tenant ${tenantId}`, { details: { status: 403 } });
}

function checkRecords(value: unknown, maxBatch: number): WireRecord[] {
  if (!Array.isArray(value)) invalid('records', 'an array of records');
  if (value.length > maxBatch)
    throw new ZerdaError(
      'VALIDATION',
      `A push holds at most ${maxBatch} records (got ${value.length}); nothing was stored`,
      {
        details: { status: 413 },
      },
    );
  return value.map((r: Partial<WireRecord>, i) => {
    if (typeof r !== 'object' || r === null) invalid(`records[${i}]`, 'a record');
    checkId(`records[${i}].id`, r.id);
    checkId(`records[${i}].device`, r.device);
    if (!isHlc(r.hlc)) invalid(`records[${i}].hlc`, 'a hybrid clock timestamp', r.hlc);
    if (typeof r.data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(r.data))
      invalid(`records[${i}].data`, 'base64 text');
    return { id: r.id, device: r.device, hlc: r.hlc, data: r.data };
  });
}

async function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > max) throw tooLarge(max);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw tooLarge(max);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    invalid('body', 'JSON');
  }
}

function tooLarge(max: number): ZerdaError {
  return new ZerdaError(
    'VALIDATION',
    `The request body exceeds ${max} bytes; nothing was stored. Push smaller batches`,
    {
      details: { status: 413 },
    },
  );
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
