import { buildPrompt, isInteraction } from '@zerda/core';
import { TENANT, type DemoApp, type Turn } from '../app.js';
import { showText } from '../dialogs.js';
import { field, h, replace, select } from '../dom.js';
import { explainNothingRecalled } from '../gate.js';
import { explain, helpFor } from '../help.js';
import {
  asksSomething,
  createEndpointResponder,
  createLocalResponder,
  type EndpointSettings,
  type Responder,
} from '../responder.js';

const SETTINGS_KEY = 'zerda-demo:endpoint';

function loadSettings(): EndpointSettings & { use: boolean } {
  try {
    const raw = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as Partial<
      EndpointSettings & { use: boolean }
    > | null;
    return { baseUrl: raw?.baseUrl ?? '', model: raw?.model ?? '', apiKey: raw?.apiKey ?? '', use: raw?.use === true };
  } catch {
    return { baseUrl: '', model: '', apiKey: '', use: false };
  }
}

/** The chat pane and a way to send a message through it (the guided start's “tell it a fact”). */
export interface ChatPanel {
  element: HTMLElement;
  /** Type `text` into the composer and send it, exactly as the visitor would; resolves to the turn. */
  say(text: string): Promise<Turn | undefined>;
}

/**
 * The chat pane: each turn builds the context (recall → working memory → token-budgeted prompt),
 * asks the responder, and saves the turn with `saveInteraction`. The exact prompt of every reply
 * can be opened under it.
 */
export function createChatPanel(app: DemoApp): ChatPanel {
  const settings = loadSettings();
  const log = h('div', {
    class: 'chat-log',
    testid: 'chat-log',
    attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' },
  });
  const input = h('textarea', {
    testid: 'chat-input',
    attrs: {
      id: 'chat-input',
      rows: 2,
      'aria-label': 'Message',
      placeholder: 'Tell me something about you, or ask what I remember…',
    },
  });
  const send = h('button', { class: 'primary', testid: 'chat-send', text: 'Send' });
  // This session's messages per user: switching to another user and back shows them live again,
  // after that user's earlier turns from long-term memory (not as faded history).
  const live = new Map<string, { nodes: HTMLElement[]; savedIds: Set<string> }>();
  const liveOf = (user: string) => {
    let l = live.get(user);
    if (!l) live.set(user, (l = { nodes: [], savedIds: new Set() }));
    return l;
  };

  const responderSelect = select(
    'responder-select',
    [
      ['local', 'Built-in local responder (offline)'],
      ['endpoint', 'OpenAI-compatible endpoint'],
    ],
    settings.use ? 'endpoint' : 'local',
  );
  responderSelect.setAttribute('aria-label', 'Responder');
  const baseUrl = h('input', {
    testid: 'endpoint-url',
    attrs: { placeholder: 'https://api.openai.com/v1', value: settings.baseUrl },
  });
  const model = h('input', { testid: 'endpoint-model', attrs: { placeholder: 'gpt-4o-mini', value: settings.model } });
  const apiKey = h('input', {
    testid: 'endpoint-key',
    attrs: { type: 'password', placeholder: 'API key (kept in this browser)', value: settings.apiKey },
  });
  const endpointBox = h(
    'form',
    { class: 'endpoint', attrs: { hidden: !settings.use }, on: { submit: (e) => e.preventDefault() } },
    field('Base URL', baseUrl),
    field('Model', model),
    field('API key', apiKey),
  );
  const saveSettings = () => {
    const use = responderSelect.value === 'endpoint';
    endpointBox.hidden = !use;
    localStorage.setItem(
      SETTINGS_KEY,
      JSON.stringify({ baseUrl: baseUrl.value, model: model.value, apiKey: apiKey.value, use }),
    );
  };
  for (const el of [responderSelect, baseUrl, model, apiKey]) el.addEventListener('change', saveSettings);

  const responder = (): Responder =>
    responderSelect.value === 'endpoint'
      ? createEndpointResponder({ baseUrl: baseUrl.value, model: model.value, apiKey: apiKey.value })
      : createLocalResponder();

  const submit = async (): Promise<Turn | undefined> => {
    const query = input.value.trim();
    if (!query || send.disabled) return undefined;
    send.disabled = true;
    input.value = '';
    const user = app.user;
    const mine = liveOf(user);
    const asked = message('user', query);
    const pending = message('pending', '…');
    mine.nodes.push(asked, pending);
    log.append(asked, pending);
    log.scrollTop = log.scrollHeight;
    let failure = '';
    const turn = await app.guard(
      async () => {
        const context = await app.manager.buildContext(app.user, TENANT, query);
        const prompt = buildPrompt(context);
        const reply = await responder().reply(query, context);
        const saved = await app.manager.saveInteraction(app.user, TENANT, query, reply);
        if (saved.pii.length) app.pii.push({ at: saved.entry.createdAt, entryId: saved.entry.id, findings: saved.pii });
        const t: Turn = { query, reply, context, prompt, saved: saved.entry, formed: saved.memories };
        return t;
      },
      { show: (m) => (failure = m) },
    );
    // A failure shows where it happened: in the conversation, instead of the reply.
    const answer = turn ? message('assistant', turn.reply, turn, false, app) : message('error', failure);
    mine.nodes.splice(mine.nodes.indexOf(pending), 1, answer);
    pending.replaceWith(answer);
    if (turn) {
      if (turn.saved) mine.savedIds.add(turn.saved.id);
      app.lastTurns.set(user, turn);
      app.turns.push(turn);
      app.changed('turn');
      app.changed('memories');
    }
    log.scrollTop = log.scrollHeight;
    send.disabled = false;
    input.focus();
    return turn;
  };
  send.addEventListener('click', () => void submit());
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  });

  // Earlier sessions' turns (long-term conversation memories), so a reload shows continuity; this
  // session's turns of the user follow, live (they are in long-term memory too, so not twice).
  const loadHistory = async () => {
    const user = app.user;
    const mine = liveOf(user);
    const past = await app.guard(
      () =>
        app.manager.listMemories(user, TENANT, {
          kinds: ['conversation'],
          userId: user,
          limit: 6 + mine.savedIds.size,
        }),
      { background: true, needs: 'read' },
    );
    if (user !== app.user) return; // switched again meanwhile
    const items = (past ?? [])
      .filter((e) => !mine.savedIds.has(e.id))
      .slice(0, 6)
      .reverse()
      .flatMap((e) => {
        if (!isInteraction(e.content)) return [];
        return [
          message('user', e.content.input, undefined, true),
          message('assistant', e.content.output, undefined, true),
        ];
      });
    replace(
      log,
      ...(items.length ? [h('p', { class: 'muted', text: 'Earlier (from long-term memory):' }), ...items] : []),
      ...(items.length || mine.nodes.length ? [] : [welcome()]),
      ...mine.nodes,
    );
    // Show the latest turn, as any chat does, not the top of the history.
    log.scrollTop = log.scrollHeight;
  };
  app.on('user', () => void loadHistory());
  void loadHistory();

  const element = h(
    'section',
    { class: 'panel chat', testid: 'chat-panel' },
    h('h2', { text: 'Chat' }),
    log,
    h('div', { class: 'composer' }, input, send),
    h('details', { class: 'responder' }, h('summary', { text: 'Responder' }), responderSelect, endpointBox),
  );
  const say = (text: string) => {
    input.value = text;
    return submit();
  };
  return { element, say };
}

function welcome(): HTMLElement {
  return h(
    'div',
    { class: 'welcome' },
    h('p', {
      text: 'Everything here runs in your browser: memories are stored in IndexedDB, embeddings are computed by a local model in a Web Worker, and nothing leaves this page unless you configure an endpoint.',
    }),
    h('p', {
      testid: 'chat-hint',
      text: 'Try: “My name is Ada and I love hiking in the Alps.” — then later: “Where do I like to hike?”',
    }),
  );
}

function message(
  role: 'user' | 'assistant' | 'pending' | 'error',
  text: string,
  turn?: Turn,
  past = false,
  app?: DemoApp,
): HTMLElement {
  const el = h(
    'div',
    { class: `msg ${role}${past ? ' past' : ''}`, testid: past ? 'chat-past' : `chat-${role}` },
    h('div', { class: 'bubble', text }),
  );
  if (turn) {
    const piiCount = turn.saved ? Number(turn.saved.metadata.piiMasked ?? 0) : 0;
    const meta = h(
      'div',
      { class: 'msg-meta' },
      `${turn.context.recalled.length} recalled · ${turn.context.working.length} used in the prompt · ${turn.context.tokenCount} of ${turn.context.budget} tokens `,
      helpFor('budget'),
      turn.saved?.tier === 'long_term' ? ' · saved to long-term ' : ' · kept with the recent turns only ',
      helpFor(turn.saved?.tier === 'long_term' ? 'long-term' : 'short-term'),
      piiCount
        ? h(
            'span',
            { class: 'badge warn', testid: 'pii-badge', title: explain('pii') },
            `${piiCount} personal detail${piiCount === 1 ? '' : 's'} masked (PII)`,
          )
        : null,
    );
    // The exact prompt opens in a dialog (focus moves into it, Escape closes it), not inside the
    // chat's scroll area where it would open out of view.
    const prompt = h('button', {
      class: 'link prompt-toggle',
      testid: 'prompt-toggle',
      text: 'View exact prompt',
      attrs: { type: 'button', 'aria-haspopup': 'dialog' },
      on: { click: () => showText('The exact prompt of this reply', turn.prompt, 'prompt-view') },
    });
    el.append(meta, prompt);
    if (app && turn.context.recalled.length === 0 && asksSomething(turn.query)) el.append(whyNothing(app, turn));
  }
  return el;
}

/** On demand: why the relevance gate recalled nothing for this turn (the same rule as the Recall tab). */
function whyNothing(app: DemoApp, turn: Turn): HTMLElement {
  const out = h('p', { class: 'muted gate-explanation', testid: 'gate-explanation', attrs: { hidden: true } });
  const button = h('button', {
    class: 'link',
    testid: 'why-nothing',
    text: 'Why was nothing recalled?',
    attrs: { type: 'button', 'aria-expanded': 'false' },
  });
  button.addEventListener('click', async () => {
    const text = await app.guard(() => explainNothingRecalled(app, turn.query), { near: button });
    if (text === undefined) return;
    out.textContent = text;
    out.hidden = false;
    button.setAttribute('aria-expanded', 'true');
  });
  return h('div', { class: 'why-nothing' }, button, out);
}
