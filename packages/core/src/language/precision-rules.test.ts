import { describe, expect, it } from 'vitest';
import { formed, kinds, none } from './formed.fixture.js';

/**
 * Clauses that name nothing, clauses that say why, and cues of the future that plan nothing
 * (issue 28, precision): each rule with the near-misses that must still form what they form.
 */

describe('readTurn: a clause that says only "something", "stuff" or "things"', () => {
  it('forms nothing, alone or as the answer to a question', () => {
    for (const text of [
      "Lately, I've been stumped about something.",
      "I'm starting some big new things too!",
      "Lots of stuff goin' on in my life!",
      "I've been working on something cool.",
    ])
      expect(formed(text), text).toEqual([]);
    expect(formed("Lately, I've been stumped about something.", 'Is there anything on your mind lately?')).toEqual([]);
  });

  it('near-misses: what the stuff is for, a habit, what it is like, "things" as the subject', () => {
    expect(kinds('I bought some stuff for my garden.')).toEqual(['event']);
    expect(kinds("I'm always trying new things.")).toEqual(['fact']);
    expect(kinds('Stuff like this mural is really special to me!')).toEqual(['fact']);
    expect(kinds('Things have been tough for my sister lately.')).toEqual(['fact']);
  });
});

describe('readTurn: "something" said only with how it makes the speaker feel', () => {
  it('names nothing still: "something that brings us fulfillment"', () => {
    for (const text of [
      'We both have discovered something that brings us fulfillment.',
      'I found something that brings me joy.',
    ])
      expect(formed(text), text).toEqual([]);
  });

  it('near-misses: what the something is, said with it, or before "is"', () => {
    expect(kinds('Gardening is something that brings me joy.')).toEqual(['preference']);
    expect(kinds("I've started something that makes me happy: pottery.")).toEqual(['fact']);
    expect(kinds('I love doing things that bring me peace, like yoga.')).toEqual(['preference']);
    expect(kinds('I found something that brings me joy at the animal shelter.')).not.toEqual([]);
  });
});

describe('readTurn: "so I can …" says why, with the clause before it', () => {
  it('a purpose stays with what is done for it', () => {
    expect(formed('I wanna start a dance studio so I can teach others the joy that dancing brings me.')).toEqual([
      'fact | Ann | I wanna start a dance studio so I can teach others the joy that dancing brings me.',
    ]);
    expect(formed('I color-code my achievements, so I can easily track my progress.')).toHaveLength(1);
  });

  it('near-miss: "so" before a clause of its own still splits', () => {
    expect(formed('I lost my job, so I started my own business.')).toEqual([
      'event | Ann | I lost my job',
      'event | Ann | I started my own business.',
    ]);
  });
});

describe('readTurn: a cue of the future that plans nothing', () => {
  it('what happened before the cue is an event, not a task', () => {
    expect(kinds("My exam went really well, I'm gonna celebrate with my friends.")).toEqual(['event']);
    expect(kinds("Had a tough week and a doc's appointment, so it was a wake-up call.")).toEqual(['event']);
  });

  it('a good time wished or a resolve is no task; an opinion of what we should do is a view, a fact', () => {
    expect(formed("Thanks! I'll make sure to have a safe trip.")).toEqual([]);
    expect(formed("I'm gonna make this work!")).toEqual([]);
    expect(formed("I'll definitely stick up for our community.")).toEqual([]);
    expect(kinds('I totally agree that we should fight for more money and resources for our schools.')).toEqual([
      'fact',
    ]);
  });

  it('near-misses: a plan alone, a plan with its date, a suggestion', () => {
    expect(kinds("I'll celebrate my exam tonight.")).toEqual(['task']);
    expect(kinds("My exam went really well, I'll celebrate tonight.")).toEqual(['task']);
    expect(kinds("I'll make sure to book the hotel tomorrow.")).toEqual(['task']);
    expect(kinds('I think we should go camping next weekend.')).toEqual(['task']);
  });
});

describe('readTurn: what the speaker would do, or would have done', () => {
  it('forms nothing: it did not happen', () => {
    expect(formed('I would get two turtles today if I could!')).toEqual([]);
    expect(formed("I would've loved to hear that music.")).toEqual([]);
  });

  it("forms nothing for what the speaker would not want, a wish's other side", () => {
    expect(formed("I would't want to be punished, let alone puppies and dogs.")).toEqual([]);
    expect(formed("We'd never want to leave.")).toEqual([]);
  });

  it('near-misses: what the speaker does not want now, and a habit said with "would never"', () => {
    expect(kinds("I don't want to move to the city.")).toEqual(['fact']);
    expect(kinds('I would never eat meat.')).toEqual(['fact']);
    // Not wanting anything else says what the speaker has and loves.
    expect(kinds("I wouldn't want to live anywhere else.")).toEqual(['fact']);
  });

  it('near-misses: a habit of the past, what had been, are still kept', () => {
    expect(kinds("I'd practice basketball outside for hours, dreaming of playing in big games.")).toEqual(['fact']);
    expect(kinds("I'd been wanting to try yoga for a while and finally took the plunge.")).toEqual(['fact']);
  });
});

describe('readTurn: a picture handed over, nothing said of the speaker', () => {
  it('forms nothing: the caption says what it shows', () => {
    for (const text of [
      "I've found the picture with really thrilling part of the workshop, take a look.",
      'I took a lot of shots yesterday and chose the best one to send to you.',
      'I have a couple of photos I want to share with you.',
    ])
      expect(formed(text), text).toEqual([]);
  });

  it("near-misses: a picture of where the speaker was, one not handed over, one of the speaker's work", () => {
    expect(kinds('I took a few photos at the falls last summer to send to you.')).toEqual(['event']);
    expect(kinds('I have some photos from the wedding I want to share with you.')).toEqual(['fact']);
    expect(kinds('I found an old photo of my grandpa.')).toEqual(['event']);
    expect(kinds('Been restoring this vintage beauty - here is the final result pic, take a look!')).toEqual(['fact']);
    expect(formed('My partner helps me stay focused. We have a lot of cute photos, I want to share with you.')).toEqual(
      ["fact | Ann's partner | My partner helps me stay focused."],
    );
  });
});

describe('readTurn: "I\'m hoping …" with a clause is "I hope …"', () => {
  it('forms nothing, as "I hope we can …" forms nothing', () => {
    none(["I'm hoping we can find something just as nice for our hike.", "I'm still hoping it doesn't rain tomorrow."]);
  });

  it("near-misses: hoping to do something, or for something named, is the speaker's aim", () => {
    expect(kinds("I'm hoping to attend a book conference next month.")).toEqual(['fact']);
    expect(kinds("I'm hoping for some positive changes.")).toEqual(['fact']);
  });
});

describe('readTurn: an answer goes on to the end of its sentence', () => {
  it('the clauses after the answer in its sentence are part of it, not memories of their own', () => {
    expect(
      formed('Yes, we played one game, but I forgot its name.', 'Anything else that is fun to play with others?'),
    ).toEqual([
      'event | Ann | Asked "Anything else that is fun to play with others?": Yes, we played one game, but I forgot its name.',
    ]);
  });

  it('near-miss: the next sentence is a statement of its own', () => {
    expect(
      formed(
        'Yes, we played one game. I started a pottery class last week.',
        'Anything else that is fun to play with others?',
      ),
    ).toEqual([
      'event | Ann | Asked "Anything else that is fun to play with others?": Yes, we played one game.',
      'event | Ann | I started a pottery class last week.',
    ]);
  });
});

describe('readTurn: a favourite said of nothing the clause names', () => {
  it('forms nothing alone, and goes on with the statement before it', () => {
    expect(formed('Definitely one of my favorites!')).toEqual([]);
    expect(formed('I made coconut milk ice cream. Definitely one of my favorites!')).toEqual([
      'event | Ann | I made coconut milk ice cream. Definitely one of my favorites!',
    ]);
  });

  it('near-misses: a favourite that names what it is', () => {
    expect(kinds('Harry Potter is one of my favorites.')).toEqual(['preference']);
    expect(kinds('One of my favorite dishes is lasagna!')).toEqual(['preference']);
  });
});

describe('readTurn: what the speaker heard of the listener', () => {
  it("is the listener's news, no memory of the speaker's", () => {
    expect(formed('I heard you got a new job!')).toEqual([]);
    expect(formed('I read that your team won the finals last week.')).toEqual([]);
  });

  it('near-miss: what the speaker heard of something else', () => {
    expect(kinds("I heard there's a nice trail just north of where I live.")).not.toEqual([]);
  });
});

describe('readTurn: a past verb after "why" is the reason talked about', () => {
  it('is no event', () => {
    expect(kinds('Gotta focus on success and why I started.')).not.toContain('event');
  });

  it('near-misses: "that\'s why we went …" and "how we met" still say what was done', () => {
    expect(kinds("That's why we went volunteering with animals last month.")).toEqual(['event']);
    expect(kinds('I still remember how we met at the concert.')).toEqual(['event']);
  });
});

describe('readTurn: a win or a loss said with nothing it was in', () => {
  it('"I came out on top", "We won yesterday!" form nothing alone', () => {
    none(['It was intense, but I came out on top.', 'We won yesterday!', 'I finally pulled it off!']);
  });

  it('near-misses: what was won, or what it was in, is said', () => {
    expect(formed('I won a trip to Rome.')).toEqual(['event | Ann | I won a trip to Rome.']);
    expect(formed('I came out on top in the chess tournament.')).toEqual([
      'event | Ann | I came out on top in the chess tournament.',
    ]);
  });
});
