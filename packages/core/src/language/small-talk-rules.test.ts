import { describe, expect, it } from 'vitest';
import { formed as formedAs, NOON, none } from './formed.fixture.js';
import { readTurn } from './turn-reading.js';

/**
 * Small talk (issue 28, precision): how a day or life lately was, progress or resolve with nothing
 * named, staying upbeat, filling the listener in, catching up, a doing of the listener's judged,
 * and "like" meaning "such as". The turn keeps them, they form no memory; each rule with
 * the near-misses that must still form one.
 */

/** The memories `Ann` forms from `text` (Bob the other speaker): one `kind | text` line each. */
const formed = (text: string) => formedAs(text, undefined, { about: false });

describe('readTurn: how a day or week was', () => {
  it('a busy week or a great day, and a mood, form nothing', () => {
    none([
      "This week's been really busy for me.",
      'I had a great day today.',
      'The past few days have been hectic.',
      "I'm in a great mood today.",
    ]);
  });

  it('near-misses: where the day was spent, or what happened that week', () => {
    expect(formed('I had a great day at the beach with my kids.')).toEqual([
      'event | I had a great day at the beach with my kids.',
    ]);
    expect(formed('Last week was wild, I got noticed by fashion editors.')).not.toEqual([]);
  });
});

describe('readTurn: progress and a resolve, with nothing named', () => {
  it('hard work paying off and "make this work" form nothing', () => {
    none([
      'All my hard work is paying off.',
      "I've been working hard and it's paying off.",
      "I'm gonna make this work!",
      "We'll make this happen.",
    ]);
  });

  it('near-misses: what pays off is named, and a plan with where and when', () => {
    expect(formed('My bakery is finally paying off.')).toEqual(['fact | My bakery is finally paying off.']);
    expect(formed("I'm gonna make this cake for Ana's birthday next Friday.")).not.toEqual([]);
  });
});

describe('readTurn: staying upbeat, filling the listener in, a deed like that judged', () => {
  it('form nothing', () => {
    none([
      "I'm trying to stay upbeat and learn as much as I can.",
      'I just wanted to fill you in on my business.',
      "Thought I'd give you a quick update.",
      'Making a difference like that is truly amazing.',
    ]);
  });

  it('near-misses: staying active is a habit, and what the update says is kept', () => {
    expect(formed("I'm trying to stay active and do my rehab every day.")).not.toEqual([]);
    expect(formed('Running marathons like that is my thing.')).not.toEqual([]);
  });
});

describe('readTurn: "like" meaning "such as"', () => {
  it('"Like when …" goes on with the statement before it, not alone', () => {
    expect(formed('Like when we went camping.')).toEqual([]);
    const joined = formed('I love the outdoors. Like when we went camping at Lake Tahoe last summer.');
    expect(joined).toHaveLength(1);
    expect(joined[0]).toContain('Like when we went camping');
  });
});

describe('readTurn: a picture of a favourite', () => {
  it('"Check out this pic of my fave dance session!" points at a picture, and forms nothing', () => {
    none(['Check out this pic of my fave dance session! [image: a man and woman doing a yoga pose]']);
  });
});

describe('readTurn: how life goes lately, and catching up after a while', () => {
  it('form nothing', () => {
    none([
      "Life's been a bit rough lately but I'm doing alright.",
      "I've been on an emotional rollercoaster lately, but I'm coping.",
      "Life's thrown me a few curveballs lately.",
      'Long time no talk - I had lots of stuff going on.',
      'Missed chatting with ya!',
      "We haven't corresponded for a long time!",
    ]);
  });

  it('near-misses: why life was rough, and what the speaker did before it, are kept', () => {
    expect(formed("Life's been rough since my divorce.")).not.toEqual([]);
    expect(formed('Since I lost my job at Door Dash, things have been tough.')).not.toEqual([]);
    expect(formed('I had a lot going on with my move to Berlin.')).not.toEqual([]);
    expect(formed('I missed talking to my grandma.')).not.toEqual([]);
  });
});

describe('readTurn: resolve and cheer with nothing named', () => {
  it('form nothing', () => {
    none([
      "I'm not giving up, just gonna keep pushing forward.",
      'Gonna keep pushing myself to make it happen.',
      'Seeing my effort pay off was awesome.',
      "My journey's just getting started!",
      'I loved the experience.',
      "Making videos and connecting with people about gaming - that's awesome!",
    ]);
  });

  it("near-misses: the speaker's own liking is kept", () => {
    expect(formed("Hiking in the Alps - that's my favorite!")).not.toEqual([]);
    expect(formed('I loved the experience of living in Kyoto for a year.')).not.toEqual([]);
  });
});

describe('readTurn: what will not stop the speaker, with nothing named', () => {
  it('forms nothing: a resolve, as "I won\'t give up" is', () => {
    none(["Hiccups won't stop me.", "Setbacks can't hold me back!"]);
  });

  it('near-misses: what it will not stop the speaker doing, and someone who will not stop', () => {
    expect(formed("My knee injury won't stop me from running the marathon in May.")).toEqual([
      "event | My knee injury won't stop me from running the marathon in May.",
    ]);
    expect(formed("My sister won't stop calling me.")).not.toEqual([]);
  });
});

describe("readTurn: an offer to listen, and wanting what is the listener's", () => {
  it('form nothing', () => {
    none([
      "I'm here to lend an ear or help out however I can.",
      "I'm always here to listen.",
      "I'm keen to try your recipe.",
    ]);
  });

  it("near-misses: what the speaker is here for, and the speaker's own plan, are kept", () => {
    expect(formed("I'm here to study marine biology for a semester.")).not.toEqual([]);
    expect(formed("I'm keen to try rock climbing at the gym near my place.")).not.toEqual([]);
    expect(formed("I'm keen to try your lasagna at the potluck next week.")).not.toEqual([]);
  });
});

// ── Round 6 (issue 28, precision): passing feelings, chores, things brought along, maxims, advice
// and faith in the listener, and a participle that describes a subject ──

describe('readTurn: more feelings said in passing', () => {
  it('guilt, calm, closeness and a void form nothing', () => {
    none([
      'I feel kinda guilty.',
      'I felt so relaxed.',
      "I feel connected and it's really fulfilling.",
      'I feel a void in my heart.',
      "I'm so bored.",
    ]);
  });

  it('near-misses: what the feeling is about, what happened, and an injury', () => {
    expect(formed('I feel guilty about my dog.')).toEqual(['fact | I feel guilty about my dog.']);
    expect(formed("I'm pleased to say I got the job.")).not.toEqual([]);
    expect(formed('I got hurt at work.')).toEqual(['event | I got hurt at work.']);
  });
});

describe('readTurn: a chore left to, and something brought along', () => {
  it('forms nothing', () => {
    none([
      "I'm off to go do some research.",
      "I'm off to do the laundry!",
      "I'm going to bring some snack.",
      "I'll bring drinks too!",
    ]);
  });

  it('near-misses: what is researched, and a date to bring it', () => {
    expect(formed("I'm off to research adoption agencies.")).toEqual([
      "event | I'm off to research adoption agencies.",
    ]);
    expect(formed("I'll bring snacks on Saturday.")).toEqual(["task | I'll bring snacks on Saturday."]);
  });
});

describe('readTurn: a maxim of what everyone should do', () => {
  it('forms nothing', () => {
    none(['We gotta look after our health.', 'We should stick together.', 'We have to cherish the little things.']);
  });

  it('"should" typed in haste is still "should"', () => {
    none(['We shold really appreciate the small things in life and not take anything for granted.']);
  });

  it("near-misses: a chore of the household, and someone of the speaker's", () => {
    expect(formed('We need to fix our roof.')).toEqual(['task | We need to fix our roof.']);
    expect(formed('We have to take care of my mom.')).not.toEqual([]);
  });
});

describe("readTurn: advice as if in the listener's place, and faith in the listener", () => {
  it('forms nothing', () => {
    none([
      "I'd put a GPS sensor on your keys!",
      "If I were you, I'd take the job.",
      'Mixed emotions are rough, but I have faith in you!',
      'I believe in you!',
    ]);
  });

  it("near-misses: a wish, thanks, what the speaker would do, and a belief of the speaker's", () => {
    expect(formed("I'd really appreciate your help with making content and managing my social media.")).not.toEqual([]);
    expect(formed("I'd go to Rome in May if I had the money.")).toEqual([]);
    expect(formed('I believe in hard work.')).not.toEqual([]);
    expect(formed("I believe in you, and I'm starting a book club next month.")).not.toEqual([]);
  });
});

describe('readTurn: a participle that describes the subject', () => {
  it('is no past event of the speaker', () => {
    expect(formed('Roasted chicken is one of my favorites - sure I will send you the recipe.')).toEqual([
      'preference | Roasted chicken is one of my favorites - sure I will send you the recipe.',
    ]);
  });

  it('near-misses: the "I" left out, with what was done', () => {
    expect(formed('Roasted marshmallows with the kids last night.')).toEqual([
      'event | Roasted marshmallows with the kids last night.',
    ]);
    expect(formed('Blessed we both have this mindset in our lives.')).not.toEqual([]);
  });
});

describe("readTurn: what the speaker noticed of the listener's", () => {
  it('forms nothing', () => {
    none([
      'By the way, last time we saw eachother, I noticed a spiderman pin on your purse.',
      "I noticed you've been running a lot.",
    ]);
  });

  it('near-miss: what the speaker noticed near their own home', () => {
    expect(formed('I noticed a new cafe near my house.')).toEqual(['event | I noticed a new cafe near my house.']);
  });
});

describe('readTurn: the listener called by name after a greeting, typed in lower case', () => {
  it('the name goes with the greeting, whole or cut short', () => {
    expect(formed('hey bob long time no see i just got back from a harry potter party')).toEqual([
      'event | I just got back from a harry potter party',
    ]);
    expect(formed('thanks bob we moved to Porto last month')).toEqual(['fact | We moved to Porto last month']);
    expect(formed('Definitely, Bob I adopted a puppy last week')).toEqual(['event | I adopted a puppy last week']);
  });

  it('"same here" and "me too" go with the greeting', () => {
    expect(formed('yeah, same here, bob yoga helps me find balance')).toEqual(['fact | Yoga helps me find balance']);
    // Typed with no comma at all, and the listener's name before what is said to them.
    expect(formed('same here bob yoga helps me find balance')).toEqual(['fact | Yoga helps me find balance']);
    expect(formed('i totally get it nature has a way of bringing us back down to earth')).toEqual([]);
    none(['Me too!', 'Same here.']);
  });

  it("near-misses: a name that is someone else's, or a word that is no name, stays", () => {
    expect(formed('thanks kate and i went hiking in the alps last week')).toEqual([
      'event | Kate and I went hiking in the alps last week',
    ]);
    expect(formed('Definitely going to the lake cabin this weekend with my kids')).not.toEqual([]);
  });
});

describe('readTurn: "oops", "ugh", "aww" and sympathy typed in haste', () => {
  it("go with the greeting, and sympathy with the listener's news forms nothing", () => {
    none(["Oops, sorry 'bout the accident!", 'Aww that is so sweet.', 'Missed you! Anything new?']);
    expect(formed('missed you so much, I got a new job at the bakery')).toEqual([
      'fact | I got a new job at the bakery',
    ]);
    expect(formed('ugh, I missed the bus again')).toEqual(['event | I missed the bus again']);
  });
});

describe('readTurn: "I see", and wishing the listener a good time', () => {
  it('"I see, so that\'s the key" and "Enjoy the fresh air!" form nothing', () => {
    none([
      "I see, so that's the key to making a difference.",
      'Enjoy the fresh air and the views!',
      'Enjoy your trip!',
    ]);
  });

  it("near-misses: seeing someone, and enjoying something of the speaker's own", () => {
    expect(formed('I see my therapist every Monday after work.')).not.toEqual([]);
    expect(formed('Enjoying the fresh air at the lake cabin with my kids this week.')).not.toEqual([]);
  });
});

describe('readTurn: what the listener is thanked for, typed before the news', () => {
  it('"thanks for the support" and "appreciate the offer" go with the thanks', () => {
    expect(formed('thanks for the tip, bob my garden keeps me calm')).toEqual(['fact | My garden keeps me calm']);
    expect(formed('thanks for asking my new job at the bakery is going well')).toEqual([
      'fact | My new job at the bakery is going well',
    ]);
    expect(formed('appreciate the offer we already fixed the roof last week')).toEqual([
      'event | We already fixed the roof last week',
    ]);
    expect(formed('thanks for that i finally booked the flight to Lisbon')).toEqual([
      'event | I finally booked the flight to Lisbon',
    ]);
  });

  it('thanks with nothing after it forms nothing', () => {
    none([
      'thanks for the support it means a lot to me',
      'thanks for believing in me',
      'appreciate it ill reach out if I need anything',
      'Thanks for the kind words!',
      'really appreciate your help, bob',
    ]);
  });

  it('near-misses: what is thanked for is a thing of its own, or the speaker appreciates something', () => {
    expect(formed('Thanks for the support group tip, I joined one last week')).not.toEqual([]);
    expect(formed('For the first time in years I ran a full marathon')).not.toEqual([]);
    expect(formed('I appreciate the help my neighbors gave me when I moved to Leeds')).toEqual([
      'fact | I appreciate the help my neighbors gave me when I moved to Leeds',
    ]);
    expect(formed('Appreciate that my sister drove me to work all week')).toEqual([
      'event | Appreciate that my sister drove me to work all week',
    ]);
  });
});

describe('readTurn: asking the listener, said without a question mark', () => {
  it('"I was wondering if you …", "I\'m curious, what …" and "any tips …" form nothing', () => {
    none([
      'I was wondering if you have any tips for keeping cats calm on a long drive.',
      'just wondering whether you know a good dentist near the station',
      "I'm curious, what does your weekend usually look like",
      'got any tips for a first-time camper',
      'By the way, any advice on growing tomatoes on a balcony',
      'let me know if you have any ideas for the party',
    ]);
  });

  it('near-misses: what the speaker wonders of their own, did before asking, or got', () => {
    expect(formed('I wonder if my sister will like the scarf I knitted for her')).not.toEqual([]);
    expect(formed('I started a pottery class last week, any tips for a beginner')).toEqual([
      'event | I started a pottery class last week, any tips for a beginner',
    ]);
    expect(formed('I got some great tips from my coach last week')).toEqual([
      'event | I got some great tips from my coach last week',
    ]);
    expect(formed("I'm curious to see what the new trail near my house looks like")).not.toEqual([]);
  });
});

describe('readTurn: the listener called by another spelling of their name', () => {
  it('a spelling the name rules read as theirs goes with the greeting', () => {
    const [memory] = readTurn(
      { input: 'Ann: hey mohammed we moved to Porto last month', userId: 'u', createdAt: NOON },
      { listener: 'Muhammad Ali' },
    ).statements;
    expect(memory?.text).toBe('We moved to Porto last month');
  });
});

describe('readTurn: proud of the listener, or of what the speaker did', () => {
  it('"I\'m so proud of you" forms nothing', () => {
    none(["I'm so proud of you!", "That's awesome, I'm really proud of that."]);
  });

  it('near-misses: proud of what the speaker did, or of their own, is a statement of theirs', () => {
    expect(formed("I'm proud of finishing my first marathon.")).toEqual([
      "fact | I'm proud of finishing my first marathon.",
    ]);
    expect(formed("I'm really proud of my son for getting into college.")).not.toEqual([]);
  });
});

describe('readTurn: agreeing, and offering help, before or without a statement', () => {
  it('"Agreed, life\'s tough but …" and "anything I can do to help" form nothing', () => {
    none([
      "agreed, life's tough but it's worth it when we have things that make us happy",
      "that's rough, stay positive, pal anything i can do to help",
    ]);
  });

  it('near-miss: what is said after "of course," or "true," is kept', () => {
    expect(formed('Of course, I adopted a puppy last week.')).toEqual(['event | I adopted a puppy last week.']);
    expect(formed('True, I went to the park yesterday with my kids.')).toEqual([
      'event | I went to the park yesterday with my kids.',
    ]);
  });
});

describe('readTurn: praise of what was shown, in two words', () => {
  it('"great shot", "great idea" are left out whole, not their noun alone', () => {
    expect(formed("Great idea, except I don't like dark beer.")).toEqual([
      "preference | Except I don't like dark beer.",
    ]);
    expect(formed('wow, great shot the night skyline really pops').join()).not.toMatch(/^\w+ \| Shot\b/u);
  });
});

describe('readTurn: "no worries", "happy to help" and thanks typed after a clause', () => {
  it('form nothing', () => {
    none([
      "no worries, bob happy to help just let me know if there's anything else i can assist you with",
      'no problem, glad I could help let me know how it goes',
      'i think i will thanks for the suggestion, bob',
    ]);
  });

  it('near-miss: what is said after "no worries" is kept', () => {
    expect(formed('no worries, I adopted a puppy last week')).toEqual(['event | I adopted a puppy last week']);
  });
});
