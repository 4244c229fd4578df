import { readFileSync } from 'node:fs';
import { type Clock, ZerdaError } from '@zerda/core';

/**
 * The server's clock: the system time, shifted by `nowOffsetMs`, or, when `clockFile` is set,
 * the time written in that file (ISO date-time or epoch milliseconds), re-read on every call.
 *
 * Both are testing hooks (`ZERDA_CLOCK_FILE`, `ZERDA_NOW_OFFSET_MS`): a test moves a spawned
 * server through days of decay by rewriting one file, without restarting it.
 */
export function createServerClock(options: { clockFile?: string | undefined; nowOffsetMs?: number } = {}): Clock {
  const offset = options.nowOffsetMs ?? 0;
  const file = options.clockFile;
  if (!file) return () => Date.now() + offset;
  return () => readClockFile(file) + offset;
}

/** Parse the clock file: epoch milliseconds or an ISO date-time. Throws `VALIDATION` otherwise. */
export function readClockFile(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (cause) {
    throw new ZerdaError('VALIDATION', `ZERDA_CLOCK_FILE ${file} cannot be read`, { cause });
  }
  const t = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(t)) {
    throw new ZerdaError(
      'VALIDATION',
      `ZERDA_CLOCK_FILE ${file} must hold epoch milliseconds or an ISO date-time (found ${JSON.stringify(text.slice(0, 40))})`,
    );
  }
  return t;
}
