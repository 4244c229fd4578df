import { describe, expect, it } from 'vitest';
import { extractTopics } from './topics.js';

describe('extractTopics', () => {
  it('keeps words that stand together as one topic: "border collie", not "border" and "collie"', () => {
    expect(extractTopics('We adopted a border collie. The border collie loves hiking boots, and hiking.')).toEqual([
      'border collie',
      'hiking boots',
      'hiking',
    ]);
    expect(extractTopics('Tomatoes, basil and garden peas')).toEqual(['tomatoes', 'basil', 'garden peas']);
  });

  it('extractTopics skips the masker placeholders (an e-mail is not a topic)', () => {
    expect(extractTopics('Mail [EMAIL_1] or [EMAIL_2] about climbing, card [CREDIT_CARD_1]')).toEqual([
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
    expect(extractTopics('Call me whenever you want at my number [PHONE_1], my number is private')).toEqual([]);
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

  it('a liking or a month is no topic; what is liked or done then is', () => {
    expect(extractTopics('Dan hates fish')).toEqual(['fish']);
    expect(extractTopics("I'm training for a half marathon in March")).toEqual(['marathon']);
  });

  it('a profile reads what the user does, not how or when they say it', () => {
    // What the demo showed after seven turns: "email", "address", "weekends", "started learning".
    expect(extractTopics('My email is [EMAIL_1], and my address is [ADDRESS_1].')).toEqual([]);
    expect(extractTopics('I started learning the cello last month on weekends.')).toEqual(['cello']);
    expect(extractTopics('We adopted a dog breed that needs speed.')).toEqual(['breed', 'speed']);
    // An activity and the place named after it are one topic; a place not named stays apart.
    expect(extractTopics('I love hiking in the Gerês on weekends.')).toEqual(['hiking in the geres']);
    expect(extractTopics('I love hiking in the hills.')).toEqual(['hiking', 'hills']);
  });

  it('how something is said to be is no topic; what it is said of, or a noun phrase, is', () => {
    expect(extractTopics("I'm allergic to peanuts, so I have to be careful. The hike was beautiful!")).toEqual([
      'peanuts',
      'hike',
    ]);
    expect(extractTopics("it's so relaxing when we go kayaking")).toEqual(['kayaking']);
    // Graded at the end of a clause with no verb before it; a plan is in the words after its verb.
    expect(extractTopics("i'm planning a trip to japan and i have a bad knee so nothing too steep")).toEqual([
      'trip',
      'japan',
      'knee',
    ]);
    expect(extractTopics('The water was so clear, we went snorkelling every day.')).toEqual(['water', 'snorkelling']);
    expect(extractTopics("I'm a huge fan of jazz.")).toEqual(['jazz']);
    // A noun phrase after "is" or "I'm", and a name, stay.
    expect(extractTopics("I'm an architect. It was a beautiful hike. My dog is Bella.")).toEqual([
      'architect',
      'beautiful hike',
      'bella',
    ]);
  });
});
