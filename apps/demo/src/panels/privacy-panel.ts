import { PII_TYPES, type BuiltinPiiType, type Role } from '@zerda/core';
import { TENANT, USERS, type DemoApp } from '../app.js';
import { field, fmtDate, h, replace, select } from '../dom.js';
import { helpFor } from '../help.js';

/** PII findings per message, encryption at rest, and roles with live access checks. */
export function createPrivacyPanel(app: DemoApp, reopen: (passphrase: string | null) => Promise<void>): HTMLElement {
  return h(
    'section',
    { class: 'panel', testid: 'privacy-panel' },
    h('h3', {}, 'Personal data and secrets masked before storage ', helpFor('pii')),
    maskedTypes(),
    piiLog(app),
    h('h3', {}, 'Encryption at rest ', helpFor('encryption')),
    encryption(app, reopen),
    h('h3', {}, 'Users and roles ', helpFor('roles')),
    access(app),
  );
}

/** What each built-in finding type covers, with something to try in the chat. */
const TYPE_NOTES: Record<BuiltinPiiType, string> = {
  email: 'e-mail addresses',
  phone: 'phone numbers',
  credit_card: 'card numbers (Luhn-checked)',
  iban: 'IBANs (mod-97 checked)',
  ip_address: 'IPv4 and IPv6 addresses',
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

function piiLog(app: DemoApp): HTMLElement {
  const list = h('div', { testid: 'pii-log' });
  const refresh = () => {
    if (!app.pii.length) {
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
      ...app.pii
        .slice()
        .reverse()
        .map((item) =>
          h(
            'div',
            { class: 'pii-item', testid: 'pii-row' },
            h('span', { class: 'muted', text: `${fmtDate(item.at)} · ${item.findings.length} finding(s)` }),
            h(
              'ul',
              {},
              ...item.findings.map((f) =>
                h(
                  'li',
                  { testid: 'pii-finding' },
                  h('span', { class: 'badge warn', text: f.type }),
                  ` in ${f.field}: ${redact(f.value)} → `,
                  h('code', { text: f.replacement }),
                ),
              ),
            ),
          ),
        ),
    );
  };
  app.on('turn', refresh);
  refresh();
  return h(
    'div',
    {},
    h('p', {
      class: 'muted',
      text: 'Found in this session’s messages. Only the masked text is stored; the originals never reach the database.',
    }),
    list,
  );
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
  const current = select(
    'privacy-user',
    USERS.map((u) => [u.id, u.label]),
    app.user,
  );
  current.addEventListener('change', () => {
    app.user = current.value;
    app.changed('user');
  });
  const refresh = () => {
    current.value = app.user;
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
        role.addEventListener('change', () => {
          if (role.value) app.manager.grant(u.id, TENANT, role.value as Role);
          else app.manager.revoke(u.id, TENANT);
          app.changed('user');
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
      text: 'Access is fail-closed: switch to Bob and delete a memory, or to Eve and chat — the manager refuses with ACCESS_DENIED.',
    }),
  );
}
