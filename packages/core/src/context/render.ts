/**
 * The prompt-rendering rule, one place: how any value (a memory's title, text, kind, a user id,
 * profile topics and attributes, documents, history, the query) is placed in a prompt. Only the
 * builder writes structure — section headers, item starts (`- [kind, date] `, `User: `,
 * `Assistant: `, `[n]`), the fixed profile labels; a value can never start a line of its own, so
 * it cannot read as a section, a role or an item, whatever it contains.
 */

import { toWellFormed } from '../model/limits.js';

// Every line break Unicode knows (CR LF, LF, CR, VT, FF, NEL, LS, PS): each becomes `\n`.
const LINE_BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;
// Other C0 and C1 control characters (tab and the line breaks above excepted) carry no text.
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const HEADER_RUN = /={3,}/g;
const FULLWIDTH_EQUALS = '\uff1d';

/**
 * Make text safe to place inside a section: every Unicode line break becomes `\n`, other control
 * characters are dropped, lone surrogates become U+FFFD, and runs of three or more `=` become
 * full-width `＝`, so no line can read as a `=== Title ===` header. Idempotent.
 */
export function neutralizeHeaders(text: string): string {
  return toWellFormed(text.replace(LINE_BREAKS, '\n').replace(CONTROLS, '')).replace(HEADER_RUN, (run) =>
    FULLWIDTH_EQUALS.repeat(run.length),
  );
}

/** A value that must stay on its line (a kind, a title, a user id, a key): line breaks become spaces. */
export function inlineValue(text: string): string {
  return neutralizeHeaders(text).replace(/\n/g, ' ');
}

/**
 * A value after the structure the builder wrote (`prefix`, e.g. `- [fact, 2026-01-01] `): its
 * continuation lines are indented by the prefix's width, so none starts at column 0.
 */
export function blockValue(text: string, prefix: string, indent = prefix.length): string {
  return (
    prefix +
    neutralizeHeaders(text)
      .split('\n')
      .join(`\n${' '.repeat(indent)}`)
  );
}
