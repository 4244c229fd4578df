import { describe, expect, it } from 'vitest';
import { formed, NOON, none } from './formed.fixture.js';
import { GERUND_REFERS_BACK_RE } from './lexicon.js';
import { questionAnswered, questionAsked, remarkMade } from './statements.js';
import { readTurn } from './turn-reading.js';

/**
 * Fragments whose referent is in the other speaker's turn (issue 28, precision on held-out
 * chats): what the reply points at is kept with it, from the sentence of the other speaker's
 * that names it, or from the question the reply answers; each rule with the near-misses that
 * must read as before.
 */

describe('remarkMade: a reaction or thanks is never the remark', () => {
  it('"Mm, yum!", "Mmm, looks yummy!", "Thanks for the tips …" after a statement: the statement is the remark', () => {
    for (const reaction of ['Mm, yum!', 'Mmm, looks yummy!', 'Thanks for the tips and the encouragement.'])
      expect(remarkMade(`I baked a cherry pie for the party. ${reaction}`, 'Bob', 'Ann', NOON), reaction).toBe(
        'I baked a cherry pie for the party.',
      );
    expect(remarkMade('Mm, yum!', 'Bob', 'Ann', NOON)).toBeUndefined();
  });
});

describe("remarkMade: the sentence that shows the other speaker's picture", () => {
  const poster =
    "Oh well, some of the best memories can't be captured on video or audio. Take a look at this cool Disney poster! [image: a photo of a poster for a disney movie with a chef]";

  it('is what a reply to the picture replies to, when it says what the picture is', () => {
    expect(formed("Wow, that's a gorgeous poster! It reminds me of one of my favorite Disney movies.", poster)).toEqual(
      [
        `preference | Ann | Replying to Bob's "Take a look at this cool Disney poster!" [image: a poster for a disney movie with a chef]: It reminds me of one of my favorite Disney movies.`,
      ],
    );
    expect(remarkMade(poster, 'Bob', 'Ann', NOON)).toBe('Take a look at this cool Disney poster!');
  });

  it('near-misses: a showing sentence that names nothing, or no picture shared', () => {
    expect(
      remarkMade('I started yoga last month. Check out this pic! [image: a photo of a yoga mat]', 'Bob', 'Ann', NOON),
    ).toBe('I started yoga last month.');
    expect(remarkMade('I started yoga last month. Take a look at this cool Disney poster!', 'Bob', 'Ann', NOON)).toBe(
      'I started yoga last month.',
    );
  });
});

describe('readTurn: the sentence after an answer that names what the question asked about', () => {
  const asked = 'That is really inspiring. Have you found any non-profit organizations that align with your values?';

  it('goes on with the answer, the question quoted with both', () => {
    expect(
      formed(
        "I haven't found it yet, but to be honest I haven't looked for it. I think it won't be difficult for me to find the organization I need.",
        asked,
      ),
    ).toEqual([
      `fact | Ann | Asked "${asked}": I haven't found it yet, but to be honest I haven't looked for it. I think it won't be difficult for me to find the organization I need.`,
    ]);
  });

  it('near-misses: a sentence after the answer that names something else stands alone', () => {
    expect(
      formed(
        "I haven't found it yet, but to be honest I haven't looked for it. I adopted a puppy from the shelter last week.",
        asked,
      ),
    ).toEqual([
      `fact | Ann | Asked "${asked}": I haven't found it yet, but to be honest I haven't looked for it.`,
      'event | Ann | I adopted a puppy from the shelter last week.',
    ]);
  });
});

describe('questionAsked: a request to tell more after the question leaves the question the one to answer', () => {
  it('"What made you choose that shade? Tell me all about it!" is answered by "I picked this color because …"', () => {
    expect(
      formed(
        "Thanks Jo! I picked this color because it's bright and bold - like me!",
        'Wow, your new hair color looks amazing! What made you choose that shade? Tell me all about it!',
      ),
    ).toEqual([
      `event | Ann | Asked "Wow, your new hair color looks amazing! What made you choose that shade?": I picked this color because it's bright and bold - like me!`,
    ]);
    expect(questionAsked('Did you go to the concert on Saturday? Tell me more!')?.text).toBe(
      'Did you go to the concert on Saturday?',
    );
  });

  it('near-miss: after a statement of its own, the question asks only for yes or no', () => {
    expect(questionAsked('Did you go to the concert on Saturday? I went hiking with my sister.')?.remarkAfter).toBe(
      true,
    );
    expect(questionAsked('Did you go to the concert on Saturday? Tell me more!')?.remarkAfter).toBeUndefined();
  });
});

describe('readTurn: an answer that points at what the question does not name, with a picture shared', () => {
  it('"that spot" is what the picture shared with the answer shows, kept with it', () => {
    expect(
      formed(
        'Yeah, today we are going to that spot. Look at that lovely photo. [image: a photo of a city skyline with a river and boats in the water]',
        'Fresh air and buddies can do wonders. Do you have a favorite spot for hanging out?',
      ),
    ).toEqual([
      'event | Ann | Asked "Do you have a favorite spot for hanging out?": Yeah, today we are going to that spot. [image: a city skyline with a river and boats in the water]',
    ]);
  });

  it('near-miss: an answer that names what it says keeps no caption', () => {
    expect(
      formed(
        'Yeah, we go to Riverside Park every Sunday. Look at that lovely photo. [image: a photo of a city skyline with a river]',
        'Fresh air and buddies can do wonders. Do you have a favorite spot for hanging out?',
      ).every((m) => !m.includes('[image:')),
    ).toBe(true);
  });
});

describe('readTurn: "this picture" in a reply that shares none is the one the other speaker shared', () => {
  const photo =
    'You are a true friend! Remember this photo from elementary school? [image: a photo of a group of children holding a skateboard]';

  it('is quoted with the sentence that speaks of it, or alone', () => {
    expect(
      formed("That looks fun. But I don't remember at all under what circumstances we took this picture.", photo),
    ).toEqual([
      `event | Ann | Replying to Bob's "Remember this photo from elementary school?" [image: a group of children holding a skateboard]: But I don't remember at all under what circumstances we took this picture.`,
    ]);
    // A reaction to the picture ("Seeing this pic just made me …") forms nothing (generic-rules.test.ts).
    expect(
      formed(
        'Seeing this pic just made me appreciate my love of reading even more.',
        'This book I read last year reminds me to always pursue my dreams! [image: a photo of a book cover with a gold coin]',
      ),
    ).toEqual([]);
  });

  it('near-miss: with no picture shared before, the clause is read as any other', () => {
    expect(
      formed(
        "But I don't remember at all under what circumstances we took this picture.",
        'You are a true friend! I started yoga last month.',
      ),
    ).toEqual(["event | Ann | But I don't remember at all under what circumstances we took this picture."]);
  });
});

describe('readTurn: an activity whose object is "it", "them", or "that" standing alone, first in its clause', () => {
  it('goes on with the statement before it that names what; alone it forms nothing', () => {
    expect(formed('I built an app for dog owners. Making it unique for each owner and pup.')).toEqual([
      'event | Ann | I built an app for dog owners. Making it unique for each owner and pup.',
    ]);
    none(['Making it unique for each owner and pup.', 'Adding that to my bucket list!']);
  });

  it('first in a reply, it is what the other speaker said or showed, quoted with it', () => {
    expect(
      formed(
        'Glimpsing that calms me.',
        'I recently saw this wonderful sunrise again. [image: a photo of a person walking on the beach with a surfboard]',
      ),
    ).toEqual([
      `preference | Ann | Replying to Bob's "I recently saw this wonderful sunrise again." [image: a person walking on the beach with a surfboard]: Glimpsing that calms me.`,
    ]);
  });

  it('near-misses: "that" naming a noun, "it" in a set phrase, thanks before it', () => {
    expect(formed('Taking it one day at a time since my surgery.')).toEqual([
      'fact | Ann | Taking it one day at a time since my surgery.',
    ]);
    expect(formed("Giving it my all every time I'm on the court.")).toEqual([
      "fact | Ann | Giving it my all every time I'm on the court.",
    ]);
    expect(GERUND_REFERS_BACK_RE.test('Watching that movie with my family was awesome.')).toBe(false);
    none(['Cheers for the suggestion. Adding it to my list.']);
  });
});

/** What `Ann` forms from `text`, Bob having said `before`, and `earlier` the turns before that (newest first). */
function formedAfter(text: string, before: string, earlier: string[]): string[] {
  return readTurn(
    { input: `Ann: ${text}`, userId: 'u', createdAt: NOON },
    { previous: { input: `Bob: ${before}` }, earlier: earlier.map((input) => ({ input })) },
  )
    .statements.filter((s) => s.kind !== 'conversation')
    .map((s) => `${s.kind} | ${s.about} | ${s.text}`);
}

describe('readTurn: "that <noun>" in a reply, when the speaker named it before and the other speaker did not', () => {
  const celebrated =
    'After that, we celebrated at a restaurant, laughing and reliving the intense moments - it felt amazing!';
  const fan = 'Last week, I had a nice chat with a Harry Potter fan in California. It was magical!';
  const reply = 'Wow, sounds like a blast! I had an incredible time meeting with that fellow fan.';

  it("is the speaker's own: read as any other statement, the other speaker's remark not quoted", () => {
    expect(
      formedAfter(reply, celebrated, ['Bob: Thank you! Scoring those points was incredible.', `Ann: ${fan}`]),
    ).toEqual(['event | Ann | I had an incredible time meeting with that fellow fan.']);
  });

  it('near-misses: no turn of the speaker names it, the other speaker names it, or points at something too', () => {
    const quoted = `event | Ann | Replying to Bob's "${celebrated}": I had an incredible time meeting with that fellow fan.`;
    expect(formedAfter(reply, celebrated, [])).toEqual([quoted]);
    expect(formedAfter(reply, celebrated, ['Ann: I went hiking in California last week.'])).toEqual([quoted]);
    const withFan = 'After that, we celebrated at a restaurant with a fan of ours - it felt amazing!';
    expect(formedAfter(reply, withFan, [`Ann: ${fan}`])).toEqual([
      `event | Ann | Replying to Bob's "${withFan}": I had an incredible time meeting with that fellow fan.`,
    ]);
    // "that spot" and "that place": the other speaker points at the same thing by another word.
    expect(
      formedAfter(
        'Yeah, it was. That place shaped me and will always hold a special place in my heart.',
        'Wow, that spot looks gorgeous. Growing up there must have been so peaceful and stunning.',
        ['Ann: This little island is where I grew up and it is my happy place.'],
      ),
    ).toEqual([
      `fact | Ann | Replying to Bob's "Wow, that spot looks gorgeous.": That place shaped me and will always hold a special place in my heart.`,
    ]);
  });
});

describe("readTurn: a reply to the question in the middle of the other speaker's turn quotes that question", () => {
  const asked =
    "Your pup is so cute, remind me what's their name? I've been helping my younger siblings out with programming since they joined the programming course.";

  it('quotes the question the reply answers, not the sentence after it', () => {
    expect(formed("His name's Ned and he's been awesome since I adopted him.", asked)).toEqual([
      `event | Ann | Replying to Bob's "Your pup is so cute, remind me what's their name?": His name's Ned and he's been awesome since I adopted him.`,
    ]);
    expect(questionAnswered(asked, "His name's Ned", 0)).toBe("Your pup is so cute, remind me what's their name?");
  });

  it('near-misses: a reply that shares no word with the question, or more with the remark, quotes the remark', () => {
    expect(
      formed('I tried it last year and loved it.', 'Remind me what their name is? I started yoga last month.'),
    ).toEqual([`event | Ann | Replying to Bob's "I started yoga last month.": I tried it last year and loved it.`]);
    expect(questionAnswered(asked, 'I adopted him last year', 0)).toBeUndefined();
    expect(questionAnswered(asked, "His name's Ned, he loves my younger siblings", 2)).toBeUndefined();
  });
});

describe('readTurn: "that <noun>" that a relative clause of the speaker\'s says which, in a reply', () => {
  const walks = 'Going on beach sunsets is one of my favorites - good for exercise and totally calming.';

  it('is said in the clause itself: read as any other statement, the remark not quoted', () => {
    expect(
      formed("I want to brag, I had that recurring dream again where I'm flying over skyscrapers!", walks),
    ).toEqual(["event | Ann | I want to brag, I had that recurring dream again where I'm flying over skyscrapers!"]);
  });

  it('near-misses: no relative clause, or one the speaker is not the subject of, is the remark, quoted', () => {
    for (const said of [
      'I had that recurring dream again last night.',
      'I loved that beach walk where the sunset was so calming.',
    ])
      expect(formed(said, walks)).toEqual([`event | Ann | Replying to Bob's "${walks}": ${said}`]);
  });
});

describe('readTurn: what the thing the other speaker named does for the speaker (coverage 5)', () => {
  it('"This has been great for my mental health", "It helps me stay balanced": the remark quoted', () => {
    expect(formed('Thanks! This has been great for my mental health.', 'Running can really boost your mood.')).toEqual([
      'fact | Ann | Replying to Bob\'s "Running can really boost your mood.": This has been great for my mental health.',
    ]);
    expect(
      formed('Yeah, same! It helps me stay balanced during my studies.', 'Meditation is so good for the mind.'),
    ).toEqual([
      'fact | Ann | Replying to Bob\'s "Meditation is so good for the mind.": It helps me stay balanced during my studies.',
    ]);
  });

  it('"It\'s been my goal since I was a kid", "They\'re my biggest motivation": what it is to the speaker', () => {
    expect(
      formed("Thanks! It's been my goal since I was a kid.", 'Doing what you love for a living is the ultimate goal.'),
    ).toEqual([
      'fact | Ann | Replying to Bob\'s "Doing what you love for a living is the ultimate goal.": It\'s been my goal since I was a kid.',
    ]);
    expect(
      formed("They're my biggest motivation.", 'Our loved ones give us strength to tackle any challenge.'),
    ).toEqual([
      'fact | Ann | Replying to Bob\'s "Our loved ones give us strength to tackle any challenge.": They\'re my biggest motivation.',
    ]);
  });

  it('a clause before it that points back at the same remark goes with it', () => {
    expect(
      formed(
        "Yeah, it's our shared language and passion. It's been a refuge for me in tough times.",
        'Gaming is awesome, I play every day.',
      ),
    ).toEqual([
      "fact | Ann | Replying to Bob's \"Gaming is awesome, I play every day.\": It's our shared language and passion. It's been a refuge for me in tough times.",
    ]);
  });

  it('near-misses: thanks, what suits, a judgement of the listener, a clause after that does not point back', () => {
    expect(formed('It means a lot to me.', "I'm always here for you.")).toEqual([]);
    expect(formed('That works for me.', "Let's meet Saturday.")).toEqual([]);
    expect(formed("That's so sweet of you.", 'I made you a cake.')).toEqual([]);
    expect(
      formed("It's so pretty. I had to apologize to my partner for that night.", 'I went to the lake yesterday.'),
    ).toEqual(['event | Ann | I had to apologize to my partner for that night.']);
    // An "it" that stands for the phrase after it points back at nothing: no remark quoted.
    expect(
      formed("It's important to me to put my words into action.", 'Working to find solutions is awesome!'),
    ).toEqual(["fact | Ann | It's important to me to put my words into action."]);
  });
});

describe('remarkMade: an "it" judged that stands for the "how …" clause after it (coverage 5)', () => {
  it('"It\'s so cool how gaming can bring people together" is the remark a reply refers to', () => {
    expect(
      remarkMade("That's incredible! It's so cool how gaming can bring people together.", 'Bob', 'Ann', NOON),
    ).toBe("It's so cool how gaming can bring people together.");
    expect(
      formed(
        "Yeah, it's our shared language. It's been a refuge for me in tough times.",
        "It's so cool how gaming can bring people together.",
      ),
    ).toEqual([
      "fact | Ann | Replying to Bob's \"It's so cool how gaming can bring people together.\": It's our shared language. It's been a refuge for me in tough times.",
    ]);
  });

  it('near-misses: a "how" clause whose subject refers back or is the listener names nothing', () => {
    expect(remarkMade("It's amazing how it turned out.", 'Bob', 'Ann', NOON)).toBeUndefined();
    expect(remarkMade("It's great how you did that.", 'Bob', 'Ann', NOON)).toBeUndefined();
  });
});

describe("readTurn: a reply's 'they' or 'them' is quoted only with a remark or question that names more than one", () => {
  it('a remark or question that names a plural, a group or a picture of more than one is quoted', () => {
    expect(formed("They're called Peruvian Lilies.", 'Those flowers look great! What kind are they?')).toEqual([
      `fact | Ann | Asked "Those flowers look great! What kind are they?": They're called Peruvian Lilies.`,
    ]);
    expect(formed('They just sent me a generic rejection letter.', 'Did something happen with the company?')).toEqual([
      `event | Ann | Asked "Did something happen with the company?": They just sent me a generic rejection letter.`,
    ]);
    expect(formed('I took them for a hike last week.', '[image: a photo of two dogs on a trail]')).toEqual([
      "event | Ann | Replying to Bob's [image: two dogs on a trail]: I took them for a hike last week.",
    ]);
  });

  it('one that names only one thing, or nothing in the plural, is not what "they" is: the reply is read unquoted', () => {
    expect(
      formed(
        'They really bring me joy.',
        'Somewhere like this [image: a photo of a path in the woods with a forest in the background]',
      ),
    ).toEqual([]);
    expect(formed('Yes, they bring me such joy.', 'And how long have you been prioritizing your health?')).toEqual([]);
    expect(formed('They bring lots of joy and peace to our home.', "What's the second one's name?")).toEqual([]);
    expect(formed('I took them for a hike last week.', '[image: a photo of a sunset over a mountain range]')).toEqual(
      [],
    );
  });

  it('near-misses: a "they" or "them" whose plural the reply names before it, or an "it", is quoted as before', () => {
    expect(
      formed(
        'Mainly the roadways. They are full of potholes and can be dangerous for drivers.',
        'Anything else around here that needs to be fixed?',
      ),
    ).toEqual([
      `fact | Ann | Asked "Anything else around here that needs to be fixed?": Mainly the roadways. They are full of potholes and can be dangerous for drivers.`,
    ]);
    expect(
      formed(
        "I'm passionate about dance and fashion so combining them lets me show my creativity.",
        'What made you start your business?',
      ),
    ).toEqual([
      `preference | Ann | Asked "What made you start your business?": I'm passionate about dance and fashion so combining them lets me show my creativity.`,
    ]);
    expect(formed('It helped me a lot with my back pain too.', 'I started yoga last month.')).toEqual([
      `fact | Ann | Replying to Bob's "I started yoga last month.": It helped me a lot with my back pain too.`,
    ]);
  });
});

describe('questionAsked: "Got any …?" asks, with or without a word of cheer before it', () => {
  it('"Got any advice for someone just starting out?" is the question a reply answers', () => {
    expect(questionAsked('You did great taking that leap. Got any advice for someone just starting out?')?.text).toBe(
      'Got any advice for someone just starting out?',
    );
    expect(questionAsked('congrats got any advice for someone just starting out?')?.text).toBe(
      'congrats got any advice for someone just starting out?',
    );
    expect(questionAsked('We have not got any plans yet?')).toBeUndefined();
  });
});
