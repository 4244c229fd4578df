#!/usr/bin/env node
// The server's entry point (built to dist/main.js; `dist/cli.js` and the `zerda-mcp` bin load it).
//   zerda-mcp                         stdio (what desktop apps start)
//   zerda-mcp --http <port> [--host <address>]
//                                     Streamable HTTP at http://<address>:<port>/mcp
import { ZerdaError } from '@zerda/core';
import { resolveServerConfig } from './config.js';
import { runHttpServerUntilSignalled } from './http.js';
import { describeError } from './memory-service.js';
import { runStdioServer } from './server.js';

const USAGE = `Usage: zerda-mcp [--http <port> [--host <address>]]
  (no option)        serve MCP over stdin/stdout, as desktop apps start it
  --http <port>      serve MCP over Streamable HTTP at http://127.0.0.1:<port>/mcp
  --host <address>   interface for --http (default 127.0.0.1); any other than localhost
                     requires ZERDA_HTTP_TOKEN, which clients send as "Authorization: Bearer <token>"
Configuration: environment variables (ZERDA_DATA_DIR, …), see the package README.`;

/** The command line: `--http <port>`, `--host <address>`, `--help`. Throws `VALIDATION` on anything else. */
export function parseCommandLine(
  argv: readonly string[],
): { help: true } | { help: false; http?: { port: number; host?: string } } {
  let port: number | undefined;
  let host: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new ZerdaError('VALIDATION', `${flag}: a value is required\n${USAGE}`);
      return v;
    };
    if (flag === '--help' || flag === '-h') return { help: true };
    else if (flag === '--http') {
      const v = value();
      port = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!(port >= 0 && port <= 65_535))
        throw new ZerdaError('VALIDATION', `--http: expected a port from 0 to 65535, received "${v}"`);
    } else if (flag === '--host') host = value();
    else throw new ZerdaError('VALIDATION', `Unknown option "${arg}"\n${USAGE}`);
  }
  if (host !== undefined && port === undefined)
    throw new ZerdaError('VALIDATION', `--host needs --http <port>\n${USAGE}`);
  return { help: false, ...(port !== undefined ? { http: { port, ...(host !== undefined ? { host } : {}) } } : {}) };
}

// The process must survive anything a tool call throws; only a failed start is fatal.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`[zerda-mcp] unhandled rejection: ${describeError(reason)}\n`);
});
process.on('uncaughtException', (err) => {
  process.stderr.write(`[zerda-mcp] uncaught exception: ${describeError(err)}\n`);
});

async function main(): Promise<void> {
  const command = parseCommandLine(process.argv.slice(2));
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = resolveServerConfig();
  if (command.http) await runHttpServerUntilSignalled(command.http, config);
  else await runStdioServer(config);
}

main().catch((err: unknown) => {
  process.stderr.write(`[zerda-mcp] failed to start: ${describeError(err)}\n`);
  process.exit(1);
});
