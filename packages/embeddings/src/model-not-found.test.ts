// A model that is not where the app said: the error names the URL that failed and how, not the
// internal virtual path `modelFiles` loads through. A local HTTP server stands in for the app's host.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { rejectionOf } from '@zerda/core/testing';
import { bundledModelDir } from './node.js';
import { createTransformersEmbedder } from './transformers-embedder.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (path.startsWith('/spa/')) return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>');
    if (!path.startsWith('/assets/')) return res.writeHead(404).end();
    const body = await readFile(join(bundledModelDir(), path.slice('/assets/'.length))).catch(() => undefined);
    if (!body) return res.writeHead(404, 'Not Found').end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}/`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

function files(onnx: string): Record<string, string> {
  return {
    'config.json': `${base}assets/config.json`,
    'tokenizer.json': `${base}assets/tokenizer.json`,
    'tokenizer_config.json': `${base}assets/tokenizer_config.json`,
    'onnx/model_quantized.onnx': onnx,
  };
}

async function loadError(options: Parameters<typeof createTransformersEmbedder>[0]): Promise<Error> {
  const embedder = createTransformersEmbedder(options);
  try {
    const err = await rejectionOf(embedder.ready());
    expect(isZerdaError(err, 'EMBEDDING')).toBe(true);
    return err as Error;
  } finally {
    await embedder.close();
  }
}

test('modelFiles with a file the host does not have: the 404 URL, not the internal path', async () => {
  const url = `${base}assets/onnx/model-1a2b3c.onnx`;
  const err = await loadError({ modelFiles: files(url), dtype: 'q8' });
  expect(err.message).toContain(`${url} answered 404 Not Found`);
  expect(err.message).not.toContain('@zerda-model-files');
});

test('a host that answers a missing file with its HTML page (an SPA fallback) is named as such', async () => {
  const url = `${base}spa/model.onnx`;
  const err = await loadError({ modelFiles: files(url), dtype: 'q8' });
  expect(err.message).toContain(`${url} answered 200 with an HTML page, not the file`);
});

test('a model folder URL (localModelPath) and a hub (remoteHost) name the URL that failed', async () => {
  const local = await loadError({ model: 'no-model', localModelPath: `${base}models/`, dtype: 'q8' });
  expect(local.message).toContain(`${base}models/no-model/config.json answered 404`);
  const remote = await loadError({
    model: 'org/no-model',
    allowRemoteModels: true,
    remoteHost: base,
    dtype: 'q8',
    browserCache: false,
  });
  expect(remote.message).toContain(`${base}org/no-model/resolve/main/config.json answered 404`);
});
