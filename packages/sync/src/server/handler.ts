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
  /** Per-tenant quota (507 `QUOTA_EXCEEDED`), or a function giving each tenant's. */
  quota?: Quota | ((tenantId: string) => Quota | undefined);
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

  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const m = ROUTE.exec(url.pathname);
      if (!m) throw new ZerdaError('NOT_FOUND', `No such sync endpoint: ${req.method} ${url.pathname}`);
      const tenantId = decodeURIComponent(m[1]!);
      checkId('tenantId', tenantId);
      await authorize(options.verify, req.headers.authorization, tenantId);
      if (m[2] === 'records' && req.method === 'POST') {
        const body = (await readJson(req, maxBody)) as Partial<PushRequest>;
        const records = checkRecords(body?.records, maxBatch);
        send(res, 200, await store.append(tenantId, records, quotaFor(tenantId)));
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
