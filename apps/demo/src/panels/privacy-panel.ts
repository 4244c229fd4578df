import { isInteraction, PII_TYPES, type BuiltinPiiType, type MemoryEntry, type PiiType, type Role } from '@zerda/core';
import { TENANT, USERS, type DemoApp, type PiiLogItem } from '../app.js';
import { field, fmtDate, h, replace, select, whenVisible } from '../dom.js';
import { helpFor } from '../help.js';

/** PII findings per message, encryption at rest, and roles with live access checks. */
export function createPrivacyPanel(app: DemoApp, reopen: (passphrase: string | null) => Promise<void>): HTMLElement {
  const log = piiLog(app);
  const panel = h(
    'section',
    { class: 'panel', testid: 'privacy-panel' },
    h('h3', {}, 'Personal data and secrets masked before storage ', helpFor('pii')),
    maskedTypes(),
    log.element,
    h('h3', {}, 'Encryption at rest ', helpFor('encryption')),
    encryption(app, reopen),
    h('h3', {}, 'Users and roles ', helpFor('roles')),
    access(app),
  );
  // The log is rebuilt from what is stored, so it is read while the panel shows (and after changes).
  const refresh = whenVisible(panel, () => void log.refresh());
  app.on('memories', refresh);
  app.on('turn', refresh);
  app.on('user', refresh);
  refresh();
  return panel;
}

/** What each built-in finding type covers, with something to try in the chat. */
const TYPE_NOTES: Record<BuiltinPiiType, string> = {
  email: 'e-mail addresses',
  phone: 'phone numbers',
  credit_card: 'card numbers (Luhn-checked)',
  iban: 'IBANs (mod-97 checked)',
  ip_address: 'IPv4 and IPv6 addresses',
  street_address: 'street addresses with a house number — “Rua das Flores 12”, “221B Baker Street”',
  api_key: 'vendor API keys, JWTs, bearer tokens',
  credential: 'passwords, PINs, passcodes stated in words — “my password is Tr0ub4dor&3”',
  secret_assignment: 'secret-named variables — OPENAI_API_KEY=…, "apiKey": "…"',
  url_password: 'the password in a URL — postgres://admin:S3cret@db/app',
  private_key: 'PEM private-key blocks',
  seed_phrase: 'BIP-39 wallet seed phrases (12–24 words)',
};

function maskedTypes(): HTMLElement {
  return h(
    'ul',
    { class: 'muted', testid: 'pii-types' },
    ...PII_TYPES.map((t) =>
      h(
        'li',
        { testid: 'pii-type', attrs: { 'data-type': t } },
        h('span', { class: 'badge', text: t }),
        ` ${TYPE_NOTES[t]}`,
      ),
    ),
  );
}

function piiLog(app: DemoApp): { element: HTMLElement; refresh: () => Promise<void> } {
  const list = h('div', { testid: 'pii-log' });
  let generation = 0;
  // What the stored memories say: their masked text keeps the placeholders and
  // `metadata.piiMasked` the count, so the log survives a reload (the originals were never
  // stored, so they stay unknown). This session's findings add a redacted glimpse of each original.
  let fromStorage: PiiLogItem[] = [];
  const refresh = async () => {
    render();
    const mine = ++generation;
    const stored = await app.guard(
      async () =>
        app.manager.can(app.user, TENANT, 'read')
          ? app.manager.listMemories(app.user, TENANT, { tiers: ['long_term'] })
          : [],
      { background: true },
    );
    if (mine !== generation) return;
    fromStorage = (stored ?? []).flatMap((e) => storedFindings(e));
    render();
  };
  const render = () => {
    const seen = new Set(app.pii.map((p) => p.entryId));
    const items: PiiLogItem[] = [...fromStorage.filter((p) => !seen.has(p.entryId)), ...app.pii].sort(
      (x, y) => x.at - y.at,
    );
    if (!items.length) {
      replace(
        list,
        h('p', {
          class: 'muted',
          text: 'Nothing masked yet. Try: “Mail me at ada@example.com or call +44 20 7946 0958.” or “my wifi password is B3tterSafe!”',
        }),
      );
      return;
    }
    replace(
      list,
      ...items
        .slice()
        .reverse()
        .map((item) =>
          h(
            'div',
            {
              class: 'pii-item',
              testid: 'pii-row',
              attrs: { 'data-from': app.pii.includes(item) ? 'session' : 'storage' },
            },
            h('span', { class: 'muted', text: `${fmtDate(item.at)} · ${item.findings.length} finding(s)` }),
            h(
              'ul',
              {},
              ...item.findings.map((f) =>
                h(
                  'li',
                  { testid: 'pii-finding' },
                  h('span', { class: 'badge warn', text: f.type }),
                  ` in ${f.field}: ${f.value ? redact(f.value) : '(original never stored)'} → `,
                  h('code', { text: f.replacement }),
                ),
              ),
            ),
          ),
        ),
    );
  };
  return {
    refresh,
    element: h(
      'div',
      {},
      h('p', {
        class: 'muted',
        text: 'Found in the messages, newest first. Only the masked text is stored; the originals never reach the database (after a reload they show as placeholders only).',
      }),
      list,
    ),
  };
}

/** The placeholder prefix of each built-in finding type (`[EMAIL_1]` → email), as the masker writes it. */
const PLACEHOLDER_TYPES = new Map<string, PiiType>(
  PII_TYPES.map((t) => [t.toUpperCase().replace(/[^A-Z0-9]+/g, '_'), t]),
);

/**
 * The findings a stored memory still shows: `metadata.piiMasked` says how many values were masked,
 * the placeholders in its text say which types and where. Empty for an unmasked memory.
 */
function storedFindings(entry: MemoryEntry): PiiLogItem[] {
  if (!(Number(entry.metadata.piiMasked) > 0)) return [];
  const c = entry.content;
  const fields: [string, string][] = isInteraction(c)
    ? [
        ['input', c.input],
        ['output', c.output],
      ]
    : [
        ['title', c.title],
        ['text', c.text],
      ];
  const findings: PiiLogItem['findings'] = [];
  for (const [field, text] of fields) {
    for (const m of text.matchAll(/\[([A-Z0-9_]+?)_(\d+)\]/g)) {
      const type = PLACEHOLDER_TYPES.get(m[1]!);
      if (type)
        findings.push({ type, value: '', start: m.index, end: m.index + m[0].length, replacement: m[0], field });
    }
  }
  return findings.length ? [{ at: entry.createdAt, entryId: entry.id, findings }] : [];
}

/** Show just enough of a secret to recognise it. */
function redact(value: string): string {
  return value.length <= 4
    ? '••••'
    : `${value.slice(0, 2)}${'•'.repeat(Math.min(8, value.length - 4))}${value.slice(-2)}`;
}

function encryption(app: DemoApp, reopen: (passphrase: string | null) => Promise<void>): HTMLElement {
  const status = h('p', { testid: 'encryption-status' });
  const passphrase = h('input', {
    testid: 'passphrase-input',
    attrs: {
      type: 'password',
      placeholder: 'new passphrase',
      autocomplete: 'new-password',
      'aria-label': 'New passphrase',
    },
  });
  const enable = h('button', { class: 'primary', testid: 'encrypt-enable', text: 'Encrypt with this passphrase' });
  const disable = h('button', { testid: 'encrypt-disable', text: 'Turn encryption off' });
  const refresh = () => {
    const on = app.memory.encrypted;
    status.textContent = on
      ? 'On: every byte written to IndexedDB (snapshot, log, backups) is AES-GCM encrypted; the key is derived from your passphrase (PBKDF2) and never stored.'
      : 'Off: memories are stored in IndexedDB in the clear.';
    status.dataset.state = on ? 'on' : 'off';
    disable.hidden = !on;
    enable.textContent = on ? 'Change passphrase' : 'Encrypt with this passphrase';
  };
  const form = h('form', { class: 'row' }, passphrase, enable, disable);
  disable.type = 'button';
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!passphrase.value) return;
    const value = passphrase.value;
    passphrase.value = '';
    await app.guard(() => reopen(value));
    refresh();
  });
  disable.addEventListener('click', async () => {
    await app.guard(() => reopen(null));
    refresh();
  });
  app.on('encryption', refresh);
  refresh();
  return h('div', {}, status, form);
}

function access(app: DemoApp): HTMLElement {
  const body = h('tbody', {});
  const current = app.userPicker('privacy-user');
  const refresh = () => {
    replace(
      body,
      ...USERS.map((u) => {
        const role = select(
          `role-${u.id}`,
          [
            ['', 'no role'],
            ['reader', 'reader'],
            ['writer', 'writer'],
            ['admin', 'admin'],
          ],
          app.manager.roleOf(u.id, TENANT) ?? '',
        );
        role.setAttribute('aria-label', `Role of ${u.id}`);
        // Only an admin changes roles: the control says so, and the manager's checked call
        // (grantAs / revokeAs, acting as the current user) refuses anyone else anyway.
        const mayChange = app.manager.can(app.user, TENANT, 'admin');
        role.disabled = !mayChange;
        if (!mayChange) role.title = `Only an admin changes roles; ${app.user} is not one.`;
        role.addEventListener('change', async () => {
          const changed = await app.guard(
            async () => {
              if (role.value) app.manager.grantAs(app.user, u.id, TENANT, role.value as Role);
              else app.manager.revokeAs(app.user, u.id, TENANT);
              return true;
            },
            { near: role },
          );
          if (changed) app.changed('user');
          else role.value = app.manager.roleOf(u.id, TENANT) ?? '';
        });
        const perms = (['read', 'write', 'delete', 'admin'] as const).map((p) =>
          h('td', {
            class: app.manager.can(u.id, TENANT, p) ? 'yes' : 'no',
            text: app.manager.can(u.id, TENANT, p) ? '✓' : '✗',
          }),
        );
        return h('tr', { testid: `access-${u.id}` }, h('td', { text: u.id }), h('td', {}, role), ...perms);
      }),
    );
  };
  app.on('user', refresh);
  refresh();
  return h(
    'div',
    {},
    field('Acting as', current),
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h('tr', {}, ...['user', 'role', 'read', 'write', 'delete', 'admin'].map((t) => h('th', { text: t }))),
      ),
      body,
    ),
    h('p', {
      class: 'muted',
      text: 'Access is fail-closed: switch to Bob and delete a memory, or to Eve and chat — the manager refuses with ACCESS_DENIED. Only an admin changes roles (the manager checks who asks: grantAs).',
    }),
  );
}
