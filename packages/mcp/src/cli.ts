#!/usr/bin/env node
import { describeError } from './memory-service.js';
import { runStdioServer } from './server.js';

// The process must survive anything a tool call throws; only a failed start is fatal.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`[zerda-mcp] unhandled rejection: ${describeError(reason)}\n`);
});
process.on('uncaughtException', (err) => {
  process.stderr.write(`[zerda-mcp] uncaught exception: ${describeError(err)}\n`);
});

runStdioServer().catch((err: unknown) => {
  process.stderr.write(`[zerda-mcp] failed to start: ${describeError(err)}\n`);
  process.exit(1);
});
