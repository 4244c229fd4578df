import {
  isZerdaError,
  type ManagedContext,
  type MemoryEntry,
  type Permission,
  type PiiFinding,
  type Role,
} from '@zerda/core';
import type { BrowserMemory } from '@zerda/browser';
import { h, select } from './dom.js';

/** The demo keeps everything in one tenant. */
export const TENANT = 'demo';

/** Demo users and the role each gets on every open (access control lives in memory). */
export const USERS: { id: string; label: string; role: Role | null }[] = [
  { id: 'alice', label: 'Alice (admin)', role: 'admin' },
  { id: 'bob', label: 'Bob (reader)', role: 'reader' },
  { id: 'eve', label: 'Eve (no role)', role: null },
];

/** What happened in one chat turn, kept for the inspector and the prompt viewer. */
export interface Turn {
  query: string;
  reply: string;
  context: ManagedContext;
  prompt: string;
  saved: MemoryEntry | null;
  /** Memories the turn formed, updated or reinforced (e.g. the fact “Ana lives in Lisbon”). */
  formed: MemoryEntry[];
}

/** PII findings of one saved message. */
export interface PiiLogItem {
  at: number;
  entryId: string;
  findings: (PiiFinding & { field: string })[];
}

/** Change topics panels subscribe to (`encryption`: the passphrase was set or removed). */
export type Topic = 'memories' | 'user' | 'turn' | 'encryption' | 'clock';

/**
 * Shared state of the playground and a tiny event bus. Panels read from here, call the manager,
 * and announce what they changed; other panels (and other tabs, via BroadcastChannel) refresh.
 */
export class DemoApp {
  readonly memory: BrowserMemory;
  user = USERS[0]!.id;
  /** The last chat turn of each user (the inspector shows the current user's only). */
  readonly lastTurns = new Map<string, Turn>();
  readonly turns: Turn[] = [];
  readonly pii: PiiLogItem[] = [];
  /** Entry selected for the importance chart. */
  chartEntryId: string | null = null;
  readonly #bus = new EventTarget();
  readonly #errorSink: (message: string) => void;
  /** Inline errors shown next to the controls whose action failed (see {@link DemoApp.guard}). */
  readonly #actionErrors = new Map<HTMLElement, HTMLElement>();

  constructor(memory: BrowserMemory, errorSink: (message: string) => void) {
    this.memory = memory;
    this.#errorSink = errorSink;
    // Any stored change — another tab's, or background work here (vector indexing, imports) —
    // refreshes what shows it. Bursts arrive coalesced.
    memory.onChange(() => this.changed('memories'));
    this.grantDemoRoles();
    // Compile the language layer and load the tenant's vectors while the page idles, so the first
    // chat turn and question cost what later ones do (in slices: the page stays responsive).
    memory.manager.warmUp(TENANT).catch(() => undefined);
    // An error belongs to what the previous user did: a new user starts with none on screen.
    this.on('user', () => this.clearErrors());
  }

  /** The current user's last chat turn. */
  get lastTurn(): Turn | null {
    return this.lastTurns.get(this.user) ?? null;
  }

  /**
   * Fail with the manager's own `ACCESS_DENIED` unless the current user holds `permission`: the
   * demo asks it before app-level operations (maintenance, statistics, backups, export, import)
   * that take no user.
   */
  require(permission: Permission): void {
    this.manager.assertCan(this.user, TENANT, permission);
  }

  get manager() {
    return this.memory.manager;
  }

  /** Give the demo users their roles (access control is in memory, so on every open). */
  grantDemoRoles(): void {
    for (const u of USERS) if (u.role) this.memory.manager.grant(u.id, TENANT, u.role);
  }

  /** A select of the demo users that switches the current user and follows switches made elsewhere. */
  userPicker(testid: string): HTMLSelectElement {
    const picker = select(
      testid,
      USERS.map((u) => [u.id, u.label]),
      this.user,
    );
    picker.addEventListener('change', () => {
      this.user = picker.value;
      this.changed('user');
    });
    this.on('user', () => (picker.value = this.user));
    return picker;
  }

  /** Subscribe to a topic. */
  on(topic: Topic, listener: () => void): void {
    this.#bus.addEventListener(topic, () => listener());
  }

  /** Announce a change to the panels. */
  changed(topic: Topic): void {
    this.#bus.dispatchEvent(new Event(topic));
  }

  /**
   * Run an action; show a failure (with its Zerda error code) instead of throwing: next to the
   * control that started it (`near`: the message appears right after it, `data-testid="action-error"`),
   * through `show` (the chat shows it in the conversation), else in the error banner. A visitor's
   * action clears the previous errors first; a `background` refresh does not, so the refreshes a
   * failed action triggers cannot wipe its error before anyone reads it. With `needs`, nothing is
   * asked (and `undefined` comes back) unless the current user holds that permission: a panel
   * loads only what the acting user may see, instead of provoking a denial nobody asked for.
   */
  async guard<T>(
    action: () => Promise<T>,
    options: {
      background?: boolean;
      needs?: Permission;
      near?: HTMLElement;
      show?: (message: string) => void;
    } = {},
  ): Promise<T | undefined> {
    if (options.needs && !this.manager.can(this.user, TENANT, options.needs)) return undefined;
    try {
      if (!options.background) this.clearErrors();
      return await action();
    } catch (err) {
      const message = describeError(err);
      if (options.show) options.show(message);
      else if (options.near) this.#showNear(options.near, message);
      else this.#errorSink(message);
      return undefined;
    }
  }

  /** Remove every error on screen (the banner and the inline ones). */
  clearErrors(): void {
    this.#errorSink('');
    for (const el of this.#actionErrors.values()) el.remove();
    this.#actionErrors.clear();
  }

  #showNear(control: HTMLElement, message: string): void {
    let el = this.#actionErrors.get(control);
    if (!el) {
      el = h('p', { class: 'error action-error', testid: 'action-error', attrs: { role: 'alert' } });
      this.#actionErrors.set(control, el);
    }
    el.textContent = message;
    // After the control's row when it sits in one (the row's layout stays as it was); in a table
    // cell, right after the control.
    (control.closest('.row') ?? control).after(el);
  }
}

/** `CODE: message` for Zerda errors, the message otherwise. */
export function describeError(err: unknown): string {
  if (isZerdaError(err)) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
