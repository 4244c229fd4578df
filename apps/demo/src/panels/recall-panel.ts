import { DEFAULT_FUSION_METHOD, type RecallHit } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { h, replace, select } from '../dom.js';
import { explainNothingRecalled } from '../gate.js';
import { fusionDescription, helpFor, withHelp } from '../help.js';
import { memoryRow, num, table } from './inspector-panel.js';
import { asksSomething } from '../responder.js';

/**
 * Recall with its scores laid bare, in plain words: keyword match (BM25), meaning match (cosine)
 * and the combined score; how they are combined is read from the library's default fusion.
 */
export function createRecallPanel(app: DemoApp): HTMLElement {
  const query = h('input', {
    testid: 'recall-query',
    attrs: { type: 'search', 'aria-label': 'Recall query', placeholder: 'Where do I like to hike?' },
  });
  const mode = select('recall-mode', [
    ['hybrid', 'keywords + meaning'],
    ['lexical', 'keywords only'],
    ['vector', 'meaning only'],
  ]);
  mode.setAttribute('aria-label', 'Search by');
  const reinforce = h('input', { testid: 'recall-reinforce', attrs: { type: 'checkbox' } });
  // Off (the default): the chat's rule, relevance gate included, so both agree on the same question.
  const ungated = h('input', { testid: 'recall-ungated', attrs: { type: 'checkbox' } });
  const why = h('p', { class: 'muted', testid: 'recall-why' });
  const run = h('button', { class: 'primary', testid: 'recall-run', text: 'Recall' });
  const results = h('div', { testid: 'recall-results' });
  const source = h('p', { class: 'muted', testid: 'recall-source' });

  const show = (hits: RecallHit[], label: string, query?: string) => {
    source.textContent = label;
    why.textContent = '';
    if (!hits.length) {
      replace(results, h('p', { class: 'muted', text: 'Nothing recalled.' }));
      // The same explanation the chat gives on demand.
      if (query)
        void app
          .guard(() => explainNothingRecalled(app, query), { background: true, needs: 'read' })
          .then((text) => (why.textContent = text ?? ''));
      return;
    }
    replace(
      results,
      table(
        [
          'memory',
          withHelp('kind', 'kind'),
          withHelp('keyword match', 'keyword'),
          withHelp('meaning match', 'meaning'),
          withHelp('combined', 'combined'),
          withHelp('ranks', 'ranks'),
        ],
        hits.map((hit) =>
          memoryRow(
            'recall-row',
            hit.entry,
            100,
            h('td', { text: hit.entry.kind }),
            num(hit.lexicalScore, 2),
            num(hit.vectorScore, 2),
            num(hit.score, 2),
            h('td', { class: 'num', text: `${hit.lexicalRank ?? '—'} / ${hit.vectorRank ?? '—'}` }),
          ),
        ),
      ),
    );
  };

  const recall = async () => {
    if (!query.value.trim()) return;
    const hits = await app.guard(
      () =>
        app.manager.recall(app.user, TENANT, query.value, {
          mode: mode.value as 'hybrid' | 'lexical' | 'vector',
          reinforce: reinforce.checked,
          ...(ungated.checked ? { minScore: 0, ratio: 0 } : {}),
        }),
      { near: run },
    );
    if (hits)
      show(
        hits,
        `Recall for “${query.value}” (${mode.selectedOptions[0]?.textContent ?? mode.value}${reinforce.checked ? ', boosted' : ''}${ungated.checked ? ', ranked WITHOUT the relevance gate: the chat would not recall what fails it' : ', with the relevance gate, as the chat recalls'})`,
        ungated.checked ? undefined : query.value,
      );
    if (hits && reinforce.checked) app.changed('memories');
  };
  run.addEventListener('click', () => void recall());
  query.addEventListener('keydown', (e) => e.key === 'Enter' && void recall());
  // The current user's last turn only: another user's recall is not theirs to see.
  const showLastTurn = () => {
    if (app.lastTurn)
      show(
        app.lastTurn.context.recalled,
        `Recalled for the last chat turn: “${app.lastTurn.query}”`,
        asksSomething(app.lastTurn.query) ? app.lastTurn.query : undefined,
      );
    else show([], 'Ask something, or chat: the last turn’s recall shows here.');
  };
  app.on('turn', showLastTurn);
  app.on('user', showLastTurn);
  showLastTurn();

  return h(
    'section',
    { class: 'panel', testid: 'recall-panel' },
    h('h3', { text: 'Recall' }),
    h(
      'p',
      { class: 'muted', testid: 'recall-fusion', attrs: { 'data-fusion': DEFAULT_FUSION_METHOD } },
      'Recall looks for memories two ways — by shared keywords and by meaning — and combines them: ',
      `${fusionDescription()}. `,
      'Hits that match too weakly are left out — the same relevance gate as the chat, so both recall the same for the same question ',
      helpFor('gate'),
    ),
    h(
      'div',
      { class: 'row' },
      query,
      mode,
      h('label', { class: 'check' }, reinforce, 'boost what is recalled'),
      helpFor('reinforcement'),
      h('label', { class: 'check' }, ungated, 'rank without the gate'),
      run,
    ),
    source,
    results,
    why,
  );
}
