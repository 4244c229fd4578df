import { createServer } from 'node:http';
import { createSyncHandler } from './handler.js';
import { PostgresRecordStore } from './postgres-record-store.js';
import { tokenVerifier } from './tokens.js';

// zerda-sync: the sync server on PostgreSQL. Configuration by environment:
//   ZERDA_SYNC_DATABASE_URL  postgresql:// URL of an ordinary role (row-level security applies to it)
//   ZERDA_SYNC_TOKENS        JSON {"<token>": {"tenants": ["t1"], "expiresAt": 1767225600000}}
//   ZERDA_SYNC_PORT / ZERDA_SYNC_HOST (default 8787 on 127.0.0.1), ZERDA_SYNC_QUOTA_RECORDS,
//   ZERDA_SYNC_QUOTA_BYTES, ZERDA_SYNC_MAX_BODY_BYTES
//   ZERDA_SYNC_OWNER_DATABASE_URL  the role that owns and migrates the schema (default: the app role)
//   ZERDA_SYNC_SCHEMA        schema of the record tables (default zerda_sync)
//   ZERDA_SYNC_CORS_ORIGINS  origins of web apps on other origins that may sync, comma-separated
//                            (https://app.example.com,https://m.example.com), or * for any

const env = process.env;
const url = env.ZERDA_SYNC_DATABASE_URL;
if (!url) {
  console.error('zerda-sync: set ZERDA_SYNC_DATABASE_URL (and ZERDA_SYNC_TOKENS)');
  process.exit(2);
}
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const store = await PostgresRecordStore.open({
  connectionString: url,
  ...(env.ZERDA_SYNC_OWNER_DATABASE_URL ? { ownerConnectionString: env.ZERDA_SYNC_OWNER_DATABASE_URL } : {}),
  ...(env.ZERDA_SYNC_SCHEMA ? { schema: env.ZERDA_SYNC_SCHEMA } : {}),
});
const quota = { records: num(env.ZERDA_SYNC_QUOTA_RECORDS), bytes: num(env.ZERDA_SYNC_QUOTA_BYTES) };
const origins = env.ZERDA_SYNC_CORS_ORIGINS?.trim();
const handler = createSyncHandler({
  store,
  verify: tokenVerifier(JSON.parse(env.ZERDA_SYNC_TOKENS ?? '{}')),
  ...(quota.records !== undefined || quota.bytes !== undefined
    ? { quota: Object.fromEntries(Object.entries(quota).filter(([, v]) => v !== undefined)) }
    : {}),
  ...(num(env.ZERDA_SYNC_MAX_BODY_BYTES) !== undefined ? { maxBodyBytes: num(env.ZERDA_SYNC_MAX_BODY_BYTES)! } : {}),
  ...(origins ? { cors: { origins: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()) } } : {}),
});
const server = createServer((req, res) => {
  void handler(req, res);
});
const port = num(env.ZERDA_SYNC_PORT) ?? 8787;
const host = env.ZERDA_SYNC_HOST ?? '127.0.0.1';
server.listen(port, host, () => console.log(`zerda-sync listening on http://${host}:${port}`));
const shutdown = () => server.close(() => void store.close().then(() => process.exit(0)));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
