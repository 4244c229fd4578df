import { ZerdaError } from '@zerda/core';
import type { Cipher } from '@zerda/core';
import { RecordError, decodeRecord, encodeRecord, fromBase64, openFailure, toBase64 } from './record-codec.js';

// The meta record: what the database is, and whether (and with which key) it is encrypted.

interface MetaRecord {
  format: 'zerda-sqlite';
  version: 1;
  encrypted: boolean;
  keyCheck?: string;
}

const KEY_CHECK = 'zerda-key-check';

/** A meta record for a database encrypted with `cipher` (or not). */
export async function makeMeta(cipher: Cipher | undefined): Promise<Uint8Array> {
  const meta: MetaRecord = { format: 'zerda-sqlite', version: 1, encrypted: cipher !== undefined };
  if (cipher) meta.keyCheck = toBase64(await cipher.encryptText(KEY_CHECK));
  return encodeRecord(meta, undefined, undefined);
}

/** Check a meta record against `cipher`: `DECRYPTION` for a wrong or missing key, `STORAGE` when corrupt. */
export async function checkMeta(bytes: Uint8Array, cipher: Cipher | undefined): Promise<void> {
  let meta: MetaRecord;
  try {
    meta = (await decodeRecord<MetaRecord>(bytes, undefined)).header;
    if (meta.format !== 'zerda-sqlite') throw new RecordError('format', 'not a Zerda database');
  } catch (e) {
    throw openFailure('meta record', e);
  }
  if (meta.encrypted && !cipher)
    throw new ZerdaError('DECRYPTION', 'The database is encrypted: open it with `encryption` (passphrase or key)');
  if (!meta.encrypted && cipher)
    throw new ZerdaError(
      'DECRYPTION',
      'The database is not encrypted: open it without `encryption`, then call changeEncryption()',
    );
  if (cipher) {
    const text = await cipher.decryptText(fromBase64(meta.keyCheck ?? ''));
    if (text !== KEY_CHECK) throw new ZerdaError('DECRYPTION', 'Wrong passphrase or key');
  }
}
