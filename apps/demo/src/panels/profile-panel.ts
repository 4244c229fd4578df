import { TENANT, type DemoApp } from '../app.js';
import { fmt, fmtDate, h, replace, whenVisible } from '../dom.js';
import { helpFor, withHelp } from '../help.js';

/** The current user's profile: interaction count, topics, retention boost, attributes. */
export function createProfilePanel(app: DemoApp): HTMLElement {
  const view = h('div', { testid: 'profile-view' });
  const refresh = async () => {
    const profile = await app.guard(() => app.manager.profile(app.user, TENANT), {
      background: true,
      needs: 'read',
    });
    if (!profile) {
      replace(view, h('p', { class: 'muted', text: 'Not allowed to read as this user.' }));
      return;
    }
    const topics = Object.entries(profile.topics)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15);
    const max = topics[0]?.[1] ?? 1;
    replace(
      view,
      h(
        'dl',
        { class: 'facts' },
        h('dt', { text: 'User' }),
        h('dd', { testid: 'profile-user', text: profile.userId }),
        h('dt', {}, withHelp('Interactions', 'interactions')),
        h('dd', { testid: 'profile-interactions', text: String(profile.interactionCount) }),
        h('dt', {}, withHelp('Retention boost', 'boost')),
        h('dd', {
          testid: 'profile-boost',
          text: `${profile.memoryRetentionBoost >= 0 ? '+' : ''}${fmt(profile.memoryRetentionBoost, 3)} on new memories' importance`,
        }),
        h('dt', { text: 'Since' }),
        h('dd', { text: profile.interactionCount ? fmtDate(profile.createdAt) : '—' }),
      ),
      h('h4', {}, 'Topics ', helpFor('topics')),
      topics.length
        ? h(
            'ul',
            { class: 'bars', testid: 'profile-topics' },
            ...topics.map(([t, n]) =>
              h(
                'li',
                { testid: 'profile-topic' },
                h('span', { text: t }),
                h('meter', { attrs: { min: 0, max, value: n, 'aria-label': `${t}: ${n}` } }),
                h('span', { class: 'num', text: String(n) }),
              ),
            ),
          )
        : h('p', { class: 'muted', text: 'No topics yet: chat a little.' }),
      Object.keys(profile.attributes).length ? h('pre', { text: JSON.stringify(profile.attributes, null, 2) }) : null,
    );
  };
  const section = h(
    'section',
    { class: 'panel', testid: 'profile-panel' },
    h('h3', {}, 'User profile ', helpFor('profile')),
    h('p', { class: 'muted', text: 'Built from every saved turn; frequent users get a small retention boost.' }),
    view,
  );
  const update = whenVisible(section, () => void refresh());
  app.on('memories', update);
  app.on('user', update);
  update();
  return section;
}
