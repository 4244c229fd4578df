import type { RememberInput } from '@zerda/core';

/** A handful of memories a visitor can load to see filters, recall and decay without typing. */
export function sampleMemories(): RememberInput[] {
  return [
    { title: 'Name', text: 'The user is called Ada Lovelace.', kind: 'fact', importance: 0.9, tags: ['identity'] },
    {
      title: 'Hiking',
      text: 'Loves hiking in the Swiss Alps, especially around Zermatt.',
      kind: 'preference',
      importance: 0.7,
      tags: ['hobby'],
    },
    {
      title: 'Coffee',
      text: 'Prefers oat-milk flat whites, no sugar.',
      kind: 'preference',
      importance: 0.5,
      tags: ['food'],
    },
    {
      title: 'Dentist',
      text: 'Dentist appointment next Tuesday at 9:30.',
      kind: 'event',
      importance: 0.6,
      tags: ['calendar'],
    },
    {
      title: 'Report',
      text: 'Finish the quarterly analytics report by Friday.',
      kind: 'task',
      importance: 0.6,
      tags: ['work'],
    },
    { title: 'Weather', text: 'It was raining this morning.', kind: 'ephemeral', importance: 0.2, tags: [] },
    {
      title: 'Language',
      text: 'Is learning Japanese, around JLPT N4 level.',
      kind: 'fact',
      importance: 0.6,
      tags: ['learning'],
    },
  ];
}
