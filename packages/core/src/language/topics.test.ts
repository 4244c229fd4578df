import { describe, expect, it } from 'vitest';
import { extractTopics } from './topics.js';

describe('extractTopics', () => {
  it('keeps words that stand together as one topic: "border collie", not "border" and "collie"', () => {
    expect(extractTopics('We adopted a border collie. The border collie loves hiking boots, and hiking.')).toEqual([
      'border collie',
      'adopted',
      'hiking boots',
      'hiking',
    ]);
    expect(extractTopics('Tomatoes, basil and garden peas')).toEqual(['tomatoes', 'basil', 'garden peas']);
  });

  it('extractTopics skips the masker placeholders (an e-mail is not a topic)', () => {
    expect(extractTopics('Mail [EMAIL_1] or [EMAIL_2] about climbing, card [CREDIT_CARD_1]')).toEqual([
      'mail',
      'climbing',
      'card',
    ]);
  });

  it('extractTopics returns frequent content words, most frequent first, without chatter', () => {
    expect(
      extractTopics('The garden: tomatoes, tomatoes and basil in the garden; tomatoes again. 2024 was good.'),
    ).toEqual(['tomatoes', 'garden', 'basil']);
    expect(extractTopics('I really love hiking, please remember that I love hiking')).toEqual(['hiking']);
  });

  it('extractTopics leaves out filler: function-word compounds, hedges and too-general nouns', () => {
    // What the demo showed as topics before: "whenever" and "number".
    expect(extractTopics('Call me whenever you want at my number [PHONE_1], my number is private')).toEqual([
      'private',
    ]);
    // The compound families are matched by rule, not by a list of the two words above.
    expect(
      extractTopics(
        'However, something about gardening: whatever the weather, everyone in the family gardens somewhere. ' +
          'Therefore gardening, wherever and whichever season.',
      ),
    ).toEqual(['gardening', 'weather', 'family gardens', 'season']);
    // General nouns and hedges are no topics; the specific words next to them are.
    expect(extractTopics('Probably a couple of things: lots of time for chess, a number of chess clubs')).toEqual([
      'couple',
      'chess',
      'chess clubs',
    ]);
  });
});
