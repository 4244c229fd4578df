import { describe, expect, it } from 'vitest';
import { formed, kinds, NOON, none, statementsOf } from './formed.fixture.js';
import { shownPlainly } from './statements.js';
import { readTurn } from './turn-reading.js';

/**
 * Statements the rules used to leave episodic though they say something about the speaker
 * (issue 28, coverage), each with the near-misses that must still form nothing.
 */

/** The date of the one memory `Ann` forms from `text`, as `yyyy-mm-dd`. */
const dateOf = (text: string) => {
  const at = statementsOf(text).find((s) => s.kind !== 'conversation')?.at;
  return at === undefined ? undefined : new Date(at).toISOString().slice(0, 10);
};

describe('readTurn: a clause of the speaker after a dash, when what is before it forms nothing', () => {
  it('what follows a reaction, an opener or a remark is the statement', () => {
    expect(formed("Bob, you won't believe it - I got mentored by a business coach yesterday!")).toEqual([
      'event | Ann | I got mentored by a business coach yesterday!',
    ]);
    expect(formed("It's been a rough week - I gave in and bought some junk food.")).toEqual([
      'event | Ann | I gave in and bought some junk food.',
    ]);
    expect(formed("And thanks for asking, they're good- we got another cat named Bailey too.")).toEqual([
      'event | Ann | We got another cat named Bailey too.',
    ]);
  });

  it('a clause after the dash that speaks to the listener or whose "it" is before the dash forms nothing', () => {
    none([
      "Your faith in me is priceless - I won't let you down!",
      'Check out this project - I love working on it to chill out.',
      "Let me know if you need help - I'm happy to assist you!",
      'Keep going - you got this!',
    ]);
  });
});

describe("readTurn: a phrase in front that says the speaker's own is not cut off", () => {
  it('"Since I lost my job …, things have been tough" is about the speaker', () => {
    expect(formed('Since I lost my job at the bakery, things have been tough.')).toEqual([
      'event | Ann | Since I lost my job at the bakery, things have been tough.',
    ]);
  });

  it('a phrase that only frames a remark ("As for me, …", "Whenever I …, it\'s …") still leaves it episodic', () => {
    none([
      'As for me, this week has been chaotic with everything going on.',
      "Whenever I look out the window at night, it's so peaceful.",
      "When things get tough, it's important to stay positive.",
      'For letting me help, Bob. It means a lot.',
    ]);
  });
});

describe('readTurn: a statement told inside an opener or a question', () => {
  it('"Wanted to let you know that I …", "Did I tell you I …?": what follows is the statement', () => {
    expect(formed('Hey Bob! Wanted to let you know that I signed up for a pottery class.')).toEqual([
      'event | Ann | I signed up for a pottery class.',
    ]);
    expect(formed('Did I tell you I adopted a puppy last week?')).toEqual([
      'event | Ann | I adopted a puppy last week',
    ]);
    expect(formed('Have I mentioned that my sister moved to Lisbon?')).toEqual([
      "fact | Ann's sister | My sister moved to Lisbon",
    ]);
  });

  it('"Did I show you that I …?", "Did you know I …?" tell too', () => {
    expect(formed('Did I show you that I have a big bookshelf too?')).toEqual([
      'fact | Ann | I have a big bookshelf too',
    ]);
    expect(formed('Did you know I used to play the cello?')).toEqual(['event | Ann | I used to play the cello']);
    none(['Did you know that Lisbon is the capital?', 'Did you see the game?']);
  });

  it('a question that tells nothing, or asks the listener, is still left out', () => {
    none(['Did I tell you about it?', 'Did you tell her?', 'Have I shown you the garden?']);
  });
});

describe('readTurn: what the speaker does or plans, the "I" left out', () => {
  it('"Gonna …" with a date is a task; "Researching …" is what the speaker does', () => {
    expect(formed('Gonna volunteer at the animal shelter next month.')).toEqual([
      'task | Ann | Gonna volunteer at the animal shelter next month.',
    ]);
    expect(dateOf('Gonna volunteer at the animal shelter next month.')).toBe('2024-03-01');
    expect(formed('Researching adoption agencies - it has been a dream of mine.')).toEqual([
      'fact | Ann | Researching adoption agencies - it has been a dream of mine.',
    ]);
  });

  it('"Gonna …" without a date, or of what is ahead of everyone, forms nothing', () => {
    none(['Gonna take lots of pics.', 'Gonna be a great night.', 'Gonna keep pushing and working hard.']);
  });

  it('a plan to chat with someone named is a task; chatting with the listener later is not', () => {
    expect(formed("I'm gonna chat with local leaders and community groups to gather ideas.")).toEqual([
      "task | Ann | I'm gonna chat with local leaders and community groups to gather ideas.",
    ]);
    none(["I'll chat with you later.", "We'll talk soon.", "I'm gonna talk about it."]);
  });

  it("looking forward to a plan of the speaker's own, a remark after a dash aside", () => {
    const text = "I can't wait for our hike with the dogs next month - it's gonna be awesome!";
    expect(formed(text)).toEqual([`event | Ann | ${text}`]);
    expect(dateOf(text)).toBe('2024-03-01');
  });
});

describe('readTurn: what the speaker did, said as a gerund in the past or with the "I" left out', () => {
  it('"Touring with my band last week was wild", "Didn\'t see any bands, but met …" are about the speaker', () => {
    expect(formed('Touring with my band last week was wild.')).toEqual([
      'event | Ann | Touring with my band last week was wild.',
    ]);
    expect(formed("Fitting into the new team's style of play was a challenge.")).toEqual([
      "event | Ann | Fitting into the new team's style of play was a challenge.",
    ]);
    expect(formed("Didn't see any bands, but met lots of talented artists.")).toEqual([
      "fact | Ann | Didn't see any bands, but met lots of talented artists.",
    ]);
  });

  it('a remark in the present, a perception of what was shown, a noun in -ing or catching up forms nothing', () => {
    none([
      'Hiking is so good for the soul.',
      'Seeing this was awesome!',
      'The wedding was beautiful.',
      'Morning was rough.',
      "Haven't talked in a while!",
      'Never say never!',
    ]);
  });
});

describe('readTurn: a remark about no one that the speaker goes on to say is theirs', () => {
  it('"Flowers bring joy. They were part of my wedding decor.": one fact about the speaker, its referent kept', () => {
    expect(formed('Flowers bring joy. They were an important part of my wedding decor.')).toEqual([
      'fact | Ann | Flowers bring joy. They were an important part of my wedding decor.',
    ]);
    expect(formed('That beach is super special. It is where I met my husband.')).toEqual([
      'fact | Ann | That beach is super special. It is where I met my husband.',
    ]);
  });

  it('a remark on what was shown, thanks, an opinion, or a clause without "my" stays episodic', () => {
    none([
      'That pic is gorgeous! It really brightens my day.',
      'That dessert looks amazing. It reminds me of my grandma.',
      'Appreciate the help. It means a lot to my family.',
      'Celebrating small wins is crucial. It keeps my spirits up.',
      'Flowers bring joy. They remind me to slow down.',
      'Life is unpredictable. It keeps your days interesting.',
    ]);
  });
});

describe('readTurn: an "it" that stands for the phrase after it', () => {
  it('"It feels good to use my skills …" says what the speaker does and how it is for them', () => {
    expect(formed('Thanks! It feels good to use my skills to make a difference.')).toEqual([
      'fact | Ann | It feels good to use my skills to make a difference.',
    ]);
    expect(
      formed("Glad you have a good support system, Bob. It's been great having people behind me while volunteering."),
    ).toEqual(["fact | Ann | It's been great having people behind me while volunteering."]);
  });

  it("right after the speaker's statement, it goes on with that statement", () => {
    expect(
      formed('Yesterday we started on a road trip. It was fun spending time with the family and my dogs.'),
    ).toEqual([
      'event | Ann | Yesterday we started on a road trip. It was fun spending time with the family and my dogs.',
    ]);
  });

  it('said of no one, of the listener, or with a phrase that refers back, it forms nothing', () => {
    none([
      "It's important to support each other.",
      "It's so nice to hear from you, my friend.",
      'It was great seeing them so excited about my gift.',
      'It was awesome being out there with my team.',
    ]);
  });
});

describe('readTurn: "for me" asks nothing', () => {
  it('"For me, taking my dogs for a walk helps me …" is about the speaker; "Tell me …" is still a request', () => {
    expect(formed('For me, taking my dogs for a walk in the park helps me find my center.')).toEqual([
      'fact | Ann | For me, taking my dogs for a walk in the park helps me find my center.',
    ]);
    expect(formed('For me I just get deep in thought and think about my life.')).toEqual([
      'fact | Ann | For me I just get deep in thought and think about my life.',
    ]);
    none(['Tell me more about your trip to my hometown!', 'Send me a pic of your new bike when you get my text.']);
  });
});

describe('readTurn: a statement before a question tagged on after a dash', () => {
  it('"I finished another project - want to see a pic?": the statement is kept, the question left out', () => {
    expect(formed('FYI, I finished another pottery project - want to see a pic?')).toEqual([
      'event | Ann | FYI, I finished another pottery project',
    ]);
    expect(formed('I wanted to tell ya I just joined a writers group.')).toEqual([
      'event | Ann | I just joined a writers group.',
    ]);
  });
});

describe('readTurn: what the speaker says of someone of theirs', () => {
  it('"My wife teaches math …", "My mom was interested in art" are facts about them', () => {
    expect(formed('My wife teaches math at the local school.')).toEqual([
      "fact | Ann's wife | My wife teaches math at the local school.",
    ]);
    expect(formed('My mom was interested in art.')).toEqual(["fact | Ann's mom | My mom was interested in art."]);
  });

  it('"our" said of everyone, a name that may be the listener, or too few words form nothing', () => {
    none(['Our kids are our future.', 'Bob is such an inspiration to everyone.', 'My dog is cute.']);
  });
});

describe('readTurn: a feeling whose cause the speaker did', () => {
  it('"I\'m so excited, I opened my car shop last week!" says what happened', () => {
    expect(formed("I'm so excited, I opened my car shop last week!")).toEqual([
      'event | Ann | I opened my car shop last week!',
    ]);
    expect(formed('I have been stressed since I lost my work files.')).toEqual([
      'event | Ann | I have been stressed since I lost my work files.',
    ]);
  });

  it('"I got lucky finding a breeder nearby" says what the speaker came by', () => {
    expect(formed('I got lucky finding a breeder nearby that has the dogs I wanted.')).toEqual([
      'event | Ann | I got lucky finding a breeder nearby that has the dogs I wanted.',
    ]);
    none(["I'm so lucky to have you.", 'I got lucky finding it.']);
  });

  it('a feeling alone, one about the listener, or a likeness stays episodic', () => {
    none([
      "I'm so excited to meet everyone.",
      "I'm so glad I got to meet you.",
      'I felt so inspired and like I got a new lease of life.',
    ]);
  });
});

describe('readTurn: a clause of the speaker after a spliced comma, when what is before it forms nothing', () => {
  it('what the speaker did after a remark and a comma is the statement', () => {
    expect(formed('It reminds me of the film camera I had as a kid, I took plenty of beach pics.')).toEqual([
      'event | Ann | I took plenty of beach pics.',
    ]);
    expect(formed("You're not gonna believe this, I had a bit of an adventure recently.")).toEqual([
      'event | Ann | I had a bit of an adventure recently.',
    ]);
  });

  it('a hope, a promise or a plan after the comma forms nothing', () => {
    none([
      'Hopefully, I can raise enough to cover basic needs for the homeless.',
      'You will definitely succeed, I look forward to the details!',
      'Of course, let me know if you like it, we can plan a kayaking trip together, I will pick a cool spot!',
      'Maybe, I will go somewhere else.',
    ]);
  });
});

describe('readTurn: an answer to a question that refers back to the sentence before it', () => {
  const answer = (question: string, text: string) =>
    readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { previous: { input: `Bob: ${question}` } })
      .statements.filter((s) => s.kind !== 'conversation')
      .map((s) => `${s.kind} | ${s.about} | ${s.text}`);

  it('"That plate is awesome! Did you make it?" is quoted whole: its first sentence names what "it" is', () => {
    expect(answer('That plate is awesome! Did you make it?', 'Yeah, I made it in pottery class yesterday.')).toEqual([
      'event | Ann | Asked "That plate is awesome! Did you make it?": Yeah, I made it in pottery class yesterday.',
    ]);
  });

  it('the speaker\'s own short clause answers what was asked of them ("Are you reading any books?" → "I\'m reading this book")', () => {
    expect(answer('Are you currently reading any books?', "I'm reading this book and I'm totally hooked!")).toEqual([
      'fact | Ann | Asked "Are you currently reading any books?": I\'m reading this book and I\'m totally hooked!',
    ]);
    // "I'm all about dramas and romcoms" names what it likes: a liking that stands alone.
    expect(answer("What's your favorite genre?", "I'm all about dramas and romcoms.")).toEqual([
      "preference | Ann | I'm all about dramas and romcoms.",
    ]);
    // A denial, or a question not asked of the listener, says nothing of the speaker's own.
    expect(answer('Have you tried reading any of them?', "No, I haven't read them yet.")).toEqual([]);
    expect(answer('Is the new cafe open yet?', "I'm reading this book.")).toEqual([]);
  });

  it('"Have you been camping before?" → "Yeah, plenty of times." says the answerer has', () => {
    expect(answer('Have you been camping before?', 'Yeah, plenty of times.')).toEqual([
      'fact | Ann | Asked "Have you been camping before?": Yeah, plenty of times.',
    ]);
    expect(answer('Have you been camping before?', 'Nope, never.')).toEqual([]);
    expect(answer('Have you been camping before?', 'Haha, who knows.')).toEqual([]);
  });

  it('a sentence before it that only names the listener or reacts names nothing', () => {
    expect(answer('Wow, Ann! Did you make it?', 'Yeah, I made it yesterday.')).toEqual([]);
    expect(answer('Aww! Did you make it?', 'Yeah, I made it yesterday.')).toEqual([]);
  });
});

describe('readTurn: leaving to do something', () => {
  it('"I\'m off to do some taekwondo!" says what the speaker does', () => {
    expect(formed("I'm off to do some taekwondo!")).toEqual(["event | Ann | I'm off to do some taekwondo!"]);
    expect(
      formed("Taking care of ourselves is vital. I'm off to go swimming with the kids. Talk to you soon!"),
    ).toEqual(["event | Ann | I'm off to go swimming with the kids."]);
    expect(formed("I'm off to Ireland for a semester.")).toEqual(["event | Ann | I'm off to Ireland for a semester."]);
  });

  it('signing off, or leaving to be with someone said elsewhere, forms nothing', () => {
    none([
      "I'm off to bed.",
      "I'm off to get some rest now.",
      "I'm heading out to grab lunch.",
      "I'm off to spend some time with them now.",
      "I'm off to meet you!",
    ]);
  });
});

describe('readTurn: what the speaker did, the "I" left out after a time in front', () => {
  it('"Yesterday took my pups to the park" is an event of the speaker, dated', () => {
    expect(formed('Yesterday took my pups to the park, it was awesome!')).toEqual([
      'event | Ann | Yesterday took my pups to the park, it was awesome!',
    ]);
    expect(dateOf('Last weekend went hiking with my sister.')).toBe('2024-02-17');
  });

  it('a time that is the subject ("Last night felt like forever") forms nothing', () => {
    none(['Last night felt like forever.', 'Last week went by so fast.', 'Today turned out nice.']);
  });
});

describe('readTurn: a clause of its own after a time in front ("- last week I …")', () => {
  it('what catches up before a dash leaves the clause after it, its time in front, to say what happened', () => {
    expect(
      formed("A lot's happened since we talked - last week I went to a yoga retreat near my mom's place."),
    ).toEqual(["event | Ann | Last week I went to a yoga retreat near my mom's place."]);
  });
});

describe('readTurn: the clause before a dash or a spliced comma, when what follows made the whole form nothing', () => {
  it('what the speaker did or plans, before a remark to the listener, is the statement', () => {
    expect(formed("We played this game Catan - it's a great strategy game where you build settlements.")).toEqual([
      'event | Ann | We played this game Catan',
    ]);
    expect(formed("I plan to return on July 20, I'll definitely bring you some kind of souvenir!")).toEqual([
      'task | Ann | I plan to return on July 20',
    ]);
  });

  it('a reaction or a fragment before the break still forms nothing', () => {
    none([
      'I love it - you did great!',
      "That's awesome, I'm so proud of you!",
      "I'm so happy for you - you deserve it.",
    ]);
  });
});

describe('readTurn: "That\'s why I …" first in a turn is the speaker\'s own', () => {
  it('what follows "that\'s why" says what the speaker likes or did', () => {
    expect(formed("Yeah, that's why I love volunteering!")).toEqual([
      "preference | Ann | That's why I love volunteering!",
    ]);
    expect(formed("You nailed it! That's why we went volunteering with animals.")).toEqual([
      "event | Ann | That's why we went volunteering with animals.",
    ]);
  });

  it('right after a statement it goes on with it; with its object said elsewhere it forms nothing', () => {
    expect(formed("I grew up with my mom. That's why I want to pass that same support on.")).toEqual([
      "fact | Ann | I grew up with my mom. That's why I want to pass that same support on.",
    ]);
    none(["That's why I love it so much.", "That's why it matters."]);
  });
});

describe('readTurn: the clause before a remark to the listener after a comma', () => {
  it('"I went to Lisbon last year, you should go too!" keeps what the speaker did', () => {
    expect(formed('I went to Lisbon last year, you should go too!')).toEqual([
      'event | Ann | I went to Lisbon last year',
    ]);
  });

  it('a clause before it whose place or object is said elsewhere forms nothing', () => {
    none(['I went there last year, you should go too!', 'I love it, you did great!']);
  });
});

describe('readTurn: a plan said with an adverb ("I\'m definitely going to …")', () => {
  it('is a cue of the future, as "I\'m going to …" is', () => {
    expect(formed("I'm definitely going to keep up with my German lessons.")).toEqual([
      "task | Ann | I'm definitely going to keep up with my German lessons.",
    ]);
  });

  it('encouraging oneself in reply still forms nothing', () => {
    none(["I'm definitely gonna keep pushing!", "I'm really going to stay positive."]);
  });
});

// ── Coverage 3 (h-cov3): what the speaker values, means to do, plans with a date or shows of their own ──

describe('readTurn: what matters to the speaker', () => {
  it('a thing or a person of the speaker that matters to them is a fact of the speaker', () => {
    expect(formed('Friendship means a lot to me.')).toEqual(['fact | Ann | Friendship means a lot to me.']);
    expect(formed('Nature is so therapeutic for me.')).toEqual(['fact | Ann | Nature is so therapeutic for me.']);
    expect(formed("Family's super important to me.")).toEqual(["fact | Ann | Family's super important to me."]);
    expect(formed('My family has been my rock through everything.')).toEqual([
      'fact | Ann | My family has been my rock through everything.',
    ]);
  });

  it('thanks to the listener, a pronoun said of elsewhere, or what only suits, form nothing', () => {
    none([
      'Your support means a lot to me.',
      'They mean the world to me.',
      'It means a lot to me.',
      'Saturday works for me!',
      'Nah, no changes for me.',
    ]);
  });
});

describe('readTurn: what the speaker is eager, or hopes, to do', () => {
  it('looking forward to doing something the clause names is a fact of the speaker', () => {
    expect(formed("I'm so excited to learn about Japanese culture and get a chance to expand.")).toEqual([
      "fact | Ann | I'm so excited to learn about Japanese culture and get a chance to expand.",
    ]);
    expect(formed("I'm thrilled to make a family for kids who need one.")).toEqual([
      "fact | Ann | I'm thrilled to make a family for kids who need one.",
    ]);
    expect(formed("I hope to build my own family and put a roof over kids who haven't had that before.")).toEqual([
      "fact | Ann | I hope to build my own family and put a roof over kids who haven't had that before.",
    ]);
    expect(formed('I\'m really excited to watch this new show called "The Wheel of Time".')).toEqual([
      'fact | Ann | I\'m really excited to watch this new show called "The Wheel of Time".',
    ]);
  });

  it('to see or hear, a pronoun, the listener, a vague good or too few words stay a feeling', () => {
    none([
      "I'm excited to see what the future holds.",
      "I'm excited to give it a try.",
      "I'm excited to hear how you reach out and help those kids.",
      "I'm excited to work hard and make a positive impact.",
      "I'm stoked to start this new chapter.",
      'I hope to work in the future.',
      'We hope to join you and the furry friends soon!',
    ]);
  });
});

describe('readTurn: a dream or joy of the speaker said with an "it" that stands for what follows', () => {
  it('"It\'s been a dream to …", "It brings me joy to …" are facts of the speaker', () => {
    expect(formed("It's been a dream to adopt and provide a safe, loving home for kids who need it.")).toEqual([
      "fact | Ann | It's been a dream to adopt and provide a safe, loving home for kids who need it.",
    ]);
    expect(formed('It brings me joy to spread that feeling and motivate people to find their own peace.')).toEqual([
      'fact | Ann | It brings me joy to spread that feeling and motivate people to find their own peace.',
    ]);
  });

  it('the listener\'s, a pronoun in what is done, or a bare "it" stay episodic', () => {
    none([
      "It's always a dream to see your favorites performing!",
      'It brings me so much happiness.',
      "It's been a dream to try it.",
    ]);
  });
});

describe('readTurn: a plan with the listener and its date', () => {
  it('"Let\'s … next Saturday", "Can\'t wait to … with you next Saturday" are events ahead', () => {
    const plan = readTurn(
      { input: "Ann: Let's get everything ready and paint next Saturday.", userId: 'u', createdAt: NOON },
      { listener: 'Bob' },
    ).statements.find((s) => s.kind !== 'conversation');
    expect(plan?.kind).toBe('event');
    expect(new Date(plan!.at!).toISOString().slice(0, 10)).toBe('2024-02-24');
    expect(formed("Can't wait to paint with you next Saturday.")).toEqual([
      "event | Ann | Can't wait to paint with you next Saturday.",
    ]);
  });

  it('no date, nothing planned, a pronoun, or no one to do it with form nothing', () => {
    none([
      "Let's paint together sometime!",
      'Let’s make tomorrow unforgettable, Bob.',
      "Let's make some awesome memories tomorrow at the grand opening!",
      "Let's do it next month when the weather is more pleasant.",
      "Let's plan for next month.",
      "Can't wait to visit next month.",
    ]);
  });
});

describe('readTurn: wishing to do something named', () => {
  it('"I really wish I could …" with what the speaker would do is a preference', () => {
    expect(formed('I really wish I could go on a road trip with a furry companion.')).toEqual([
      'preference | Ann | I really wish I could go on a road trip with a furry companion.',
    ]);
  });

  it('a pronoun, the listener, a picture or too few words form nothing', () => {
    none([
      'I wish I could do that more often.',
      'I wish I could make it the way you do!',
      'Sometimes I wish I could go back to places like the one in the photo below.',
      'I wish I could bring you along.',
    ]);
  });
});

describe("readTurn: showing the speaker's own in three words", () => {
  it('"Here\'s a pic of my fam at the beach" is a fact of the speaker', () => {
    expect(formed("Here's a pic of my fam at the beach.")).toEqual([
      'fact | Ann | Shared a picture of my fam at the beach.',
    ]);
  });

  it("a picture that names nothing of the speaker's stays in the turn", () => {
    none(['Check out this pic I took!', "Here's a pic from the event!", 'Here is my bookshelf.']);
  });
});

describe('readTurn: a liking said to last', () => {
  it('"I will always love reading" is a preference, not a task', () => {
    expect(formed('I will always love reading, personally.')).toEqual([
      'preference | Ann | I will always love reading, personally.',
    ]);
  });

  it('of the listener or of a pronoun it forms nothing', () => {
    none(["I'll always love you.", "I'll always love it!", 'I will always cherish them.']);
  });
});

describe("readTurn: someone of the speaker's introduced by name", () => {
  it('a name with "my …", "he/she …" or "his/her …" after it is a fact of the speaker', () => {
    expect(formed('That one is Max, my childhood dog.')).toEqual(['fact | Ann | That one is Max, my childhood dog.']);
    expect(formed("This is Max – he's so lovable and playful.")).toEqual([
      "fact | Ann | This is Max – he's so lovable and playful.",
    ]);
    expect(formed("Here's Toby at his favorite spot.")).toEqual(["fact | Ann | Here's Toby at his favorite spot."]);
  });

  it('a name alone, a month, or a place called out to the listener form nothing', () => {
    none(['This is Susie.', "That's Boston, Bob!", 'This is Boston.', "That's June - she said it was fun."]);
  });
});

describe('readTurn: looking forward to doing something named, and a name as what is meant', () => {
  it('"I\'m looking forward to exploring the city" and "I was excited to explore Shinjuku" are facts of the speaker', () => {
    expect(formed("I'm looking forward to exploring the city, trying out some delicious food.")).toEqual([
      "fact | Ann | I'm looking forward to exploring the city, trying out some delicious food.",
    ]);
    expect(formed('I was excited to explore Shinjuku.')).toEqual(['fact | Ann | I was excited to explore Shinjuku.']);
  });

  it('to see, the listener\'s, more, or "one" said of elsewhere form nothing', () => {
    none([
      'Looking forward to seeing them have fun hiking.',
      "I'm looking forward to listening to your podcast.",
      "I'm really looking forward to creating more enjoyable experiences!",
      'I was so thrilled to restore one last year.',
      "I'm so excited to see Paris.",
    ]);
  });
});

describe('readTurn: what the rules of coverage 3 show keeps the picture shared with it', () => {
  it("the speaker's own shown briefly and someone introduced by name keep the caption", () => {
    expect(formed("Here's a pic of my fam at the beach. [image: a photo of a couple walking into the ocean]")).toEqual([
      'fact | Ann | Shared a picture of my fam at the beach. [image: a couple walking into the ocean]',
    ]);
    expect(formed("This is Max – he's so lovable. [image: a photo of a dog on a couch]")).toEqual([
      "fact | Ann | This is Max – he's so lovable. [image: a dog on a couch]",
    ]);
  });

  it('what is looked forward to "there" names no place', () => {
    none(['Looking forward to exploring the beautiful snowy landscapes there.']);
  });
});

describe('readTurn: a picture of what the speaker is doing now', () => {
  it('"Here\'s a pic of the car I\'m restoring" is a fact of the speaker, with its caption', () => {
    expect(formed("Here's a pic of the car I'm restoring. [image: a photo of a red car in a garage]")).toEqual([
      "fact | Ann | I'm restoring the car. [image: a red car in a garage]",
    ]);
    expect(formed('Look at this photo, here is how I am making a beat for a young artist!')).toEqual([
      'fact | Ann | Look at this photo, here is how I am making a beat for a young artist!',
    ]);
  });

  it('looking, showing, "what I\'ve been working on" or the listener form nothing', () => {
    none([
      "Check out this pic I'm showing you.",
      "Here's a look at what I've been working on - it's been quite a journey!",
      "Here's a pic of the car you're restoring.",
    ]);
  });
});

describe("readTurn: the speaker's liking of what their remark named", () => {
  it('"Jazz is so relaxing. I love it." is a preference; a liking of what the listener has or showed is not', () => {
    expect(formed('Jazz is so relaxing. I love it.')).toEqual(['preference | Ann | Jazz is so relaxing. I love it.']);
    none(['Your cake looks amazing. I love it!', 'That photo is gorgeous! I love it!']);
  });
});

describe('readTurn: a picture pointed at says plainly what the speaker did or has (SHOWN_PLAINLY)', () => {
  it('what the speaker did to what is shown, or how they did something, is said as done', () => {
    expect(formed("Here's a pic of a cake I made recently! [image: a photo of a cake with white frosting]")).toEqual([
      'event | Ann | I made a cake recently! [image: a cake with white frosting]',
    ]);
    expect(
      formed(
        'Take a look at this unforgettable moment that I captured at the concert. [image: a photo of a crowd at a stage]',
      ),
    ).toEqual(['event | Ann | I captured this unforgettable moment at the concert. [image: a crowd at a stage]']);
    expect(formed('Take a look at how I performed on stage, that was awesome! [image: a photo of a band]')).toEqual([
      'event | Ann | I performed on stage, that was awesome! [image: a band]',
    ]);
    // A preposition left at the end goes before what is shown.
    expect(formed('Look at the cars I am working with right now. [image: a photo of a car on a lift]')).toEqual([
      'fact | Ann | I am working with the cars right now. [image: a car on a lift]',
    ]);
  });

  it("the speaker's own, then what it is like, says it of the thing; what is shown, then what it does, too", () => {
    expect(formed('Check out pic of my garage, it looks stunning! [image: a photo of a car in a garage]')).toEqual([
      'fact | Ann | My garage looks stunning! [image: a car in a garage]',
    ]);
    expect(formed('Take a look at this park in my neighborhood that has these flowers.')).toEqual([
      'fact | Ann | This park in my neighborhood has these flowers.',
    ]);
  });

  it('a clause it cannot reshape safely keeps its words', () => {
    // "used to play on" is no "used" of the drum set; "what my teammates gave me" names no thing shown.
    expect(formed("Here's a photo of an old drum set I used to play on.")).toEqual([
      "event | Ann | Here's a photo of an old drum set I used to play on.",
    ]);
    expect(formed('Check out this photo of what my teammates gave me when we met.')).toEqual([
      'event | Ann | Check out this photo of what my teammates gave me when we met.',
    ]);
    // Another object, a verb that takes its object after "of", an infinitive, a particle left at the end.
    for (const clause of [
      'Check out the new café that I told you about!',
      "Here's the car I'm thinking of buying.",
      "Here's a picture I wanted to show you.",
      "Here's a photo of the house I grew up in.",
    ])
      expect(shownPlainly(clause), clause).toBeUndefined();
    expect(shownPlainly("Here's a gift I gave to my mom.")).toBe('I gave a gift to my mom.');
    // "it was taken …" is said of the picture, not of the speaker's own.
    expect(formed("Here's a pic of my dog, it was taken last year.")).toEqual([
      'event | Ann | Shared a picture of my dog, it was taken last year.',
    ]);
  });

  it("a picture of the speaker's own, with no doing said, is one the speaker shared", () => {
    expect(formed("Here's a pic of my family at the beach. [image: a photo of people on a beach]")).toEqual([
      'fact | Ann | Shared a picture of my family at the beach. [image: people on a beach]',
    ]);
    expect(formed("Here's a photo from my last hike - so serene! [image: a photo of a sunset]")).toEqual([
      'fact | Ann | Shared a picture from my last hike - so serene! [image: a sunset]',
    ]);
  });

  it('pointing that names nothing says what a caption of the speaker or theirs shows (CAPTION_OF_OWN_RE)', () => {
    expect(formed('Take a look at this! [image: me crossing the finish line of a marathon]')).toEqual([
      'event | Ann | Shared a picture of me crossing the finish line of a marathon',
    ]);
    expect(formed('Look at this! [image: a photo of my new puppy on a rug]')).toEqual([
      'fact | Ann | Shared a picture of my new puppy on a rug',
    ]);
    none(['Take a look at this! [image: a photo of a sunset over a lake]']);
  });
});

describe("readTurn: an activity of the speaker's as the subject, with how it has gone or went", () => {
  it('"Searching for a studio has been tricky" is a fact of the speaker; said in the past, an event', () => {
    expect(formed('Searching for a dance studio location has been tricky.')).toEqual([
      'fact | Ann | Searching for a dance studio location has been tricky.',
    ]);
    expect(formed('Performing and connecting with the crowd has been so energizing.')).toEqual([
      'fact | Ann | Performing and connecting with the crowd has been so energizing.',
    ]);
    expect(formed('Meeting all these adorable pups has been awesome!')).toEqual([
      'fact | Ann | Meeting all these adorable pups has been awesome!',
    ]);
    expect(formed('Exploring the city and trying all the restaurants was awesome.')).toEqual([
      'event | Ann | Exploring the city and trying all the restaurants was awesome.',
    ]);
  });

  it('a remark about everyone, in the present or with "can", and a perception or a meeting form nothing', () => {
    none([
      'Camping with pets can be so soul-nourishing.',
      'Finding balance is crucial.',
      'Seeing everyone come together has been amazing.',
      'The meeting has been postponed.',
      'Hiking and camping are great ways to relax.',
    ]);
  });
});

describe('readTurn: a picture of the occasion when the speaker did something', () => {
  it('"Here\'s a shot I got when I volunteered" is an event of the speaker, with its caption', () => {
    expect(formed("Here's a shot I got when I volunteered. [image: a photo of people around a table]")).toEqual([
      "event | Ann | Here's a shot I got when I volunteered. [image: people around a table]",
    ]);
    expect(formed('Take a look at how we freestyled when we were teenagers!')).toEqual([
      'event | Ann | We freestyled when we were teenagers!',
    ]);
    expect(formed("Here's a pic from when I was dancing!")).toEqual([
      "event | Ann | Here's a pic from when I was dancing!",
    ]);
  });

  it("the listener's occasion, a picture found elsewhere or one only taken forms nothing", () => {
    none([
      "Here's a pic from when you visited.",
      'Check out this pic I found online when I was browsing.',
      "Here's a pic I took.",
    ]);
  });
});

describe('readTurn: excited for an occasion of the speaker ahead', () => {
  it('"I\'m stoked for my game there next month" is an event ahead, with its date', () => {
    expect(formed("I'm stoked for my game there next month!")).toEqual([
      "event | Ann | I'm stoked for my game there next month!",
    ]);
    expect(formed("I'm so excited about my upcoming trip to Boston.")).toEqual([
      "event | Ann | I'm so excited about my upcoming trip to Boston.",
    ]);
    expect(dateOf("I'm so pumped for the launch tomorrow.")).toBe('2024-02-21');
  });

  it("excitement for the listener, for what names nothing of the speaker's or for an activity is no event", () => {
    none([
      "I'm so excited for you!",
      "I'm excited about your trip next week.",
      "I'm super stoked for the Harry Potter stuff.",
    ]);
    expect(kinds("I'm super thrilled about dancing each day and seeing my students progress.")).not.toContain('event');
  });
});

describe('readTurn: openers that only announce, and the listener invited in a condition', () => {
  it('"Just so you know, …" and "I\'ll be honest, …" are left out before the statement', () => {
    expect(formed("Just so you know, I've been working on a big project lately - it's been really cool.")).toEqual([
      "fact | Ann | I've been working on a big project lately - it's been really cool.",
    ]);
    expect(formed('To be honest, I quit my job last week.')).toEqual(['event | Ann | I quit my job last week.']);
    none(["Just so you know, you're awesome."]);
  });

  it('"… and thought it\'d be cool if you could come along" is the speaker\'s plan, not praise of the listener', () => {
    expect(formed("I have plans for a hike next month and thought it'd be cool if you could come along.")).toEqual([
      "fact | Ann | I have plans for a hike next month and thought it'd be cool if you could come along.",
    ]);
    none(['It would be so cool if you could come.', "I think it's awesome if you try it.", 'You are so cool!']);
  });
});

describe('readTurn: a question asked in a polite frame', () => {
  it('"Mind if I ask how …?" is the question the answer after it quotes', () => {
    expect(
      formed('It has had a positive impact on my life.', 'Mind if I ask how the internship has impacted you?'),
    ).toEqual([
      'fact | Ann | Asked "Mind if I ask how the internship has impacted you?": It has had a positive impact on my life.',
    ]);
  });

  it('a frame with no question after it asks nothing', () => {
    none(['Just curious.']);
    expect(formed('It was great.', 'I was wondering about that.')).toEqual([]);
  });
});

describe('readTurn: a feeling that goes on to name a favourite', () => {
  it('"I\'ve been blessed to travel … and Bali last year was one of my favs" is kept', () => {
    expect(kinds("I've been blessed to travel to a few places and Bali last year was one of my favs.")).toEqual([
      'event',
    ]);
  });

  it('a feeling alone, or one that calls the listener a favourite, stays in the turn', () => {
    none(["I've been blessed to travel a bit.", "I'm so happy, you're my favorite person."]);
  });
});

describe("readTurn: what someone of the speaker's did, with a remark after it, and news told to the listener", () => {
  it('"My agent found me this awesome place, so thankful!" is an event of the speaker', () => {
    expect(formed('Wow, my agent found me this awesome place, so thankful!')).toEqual([
      'event | Ann | My agent found me this awesome place, so thankful!',
    ]);
    none(['My hard work is paying off, so thankful!']);
  });

  it('"… some great insights that I want to share with you" tells the listener, no praise of them', () => {
    expect(
      kinds('Yesterday I came back from San Francisco with some great insights that I want to share with you!'),
    ).toEqual(['event']);
    none(["You did great, I'll tell you that.", "I have to tell you, you're amazing."]);
  });
});

describe('readTurn: how long, said in few words, answers "How long …?"', () => {
  it('"Been doing it for 3 years." quotes the question it answers', () => {
    expect(formed('Been doing it for 3 years.', 'How long have you been doing yoga?')).toEqual([
      'fact | Ann | Asked "How long have you been doing yoga?": Been doing it for 3 years.',
    ]);
  });

  it('a short clause that says no time, or one after a question that asks no "how long", forms nothing', () => {
    expect(formed('Been doing it a lot.', 'How long have you been doing yoga?')).toEqual([]);
    expect(formed('Been doing it for 3 years.', 'Do you like yoga?')).toEqual([]);
  });
});

// ── Coverage 5: short statements of the speaker's own ──

describe("readTurn: a feeling with the speaker's own cause named after it", () => {
  it('"I\'m so happy because I finally finished my painting" keeps the cause', () => {
    expect(formed("I'm so happy because I finally finished my painting.")).toEqual([
      "event | Ann | I'm so happy because I finally finished my painting.",
    ]);
    expect(kinds("I've been so stressed lately because of my tournament progress.")).toEqual(['fact']);
  });

  it('near-misses: the listener\'s cause, what "it" did, an opinion, the feeling alone', () => {
    none([
      "I'm so happy because you came.",
      "I'm so glad because it worked.",
      "I'm so tired because I think so.",
      "I'm so happy!",
    ]);
  });
});

describe('readTurn: a liking named in few words', () => {
  it('"Dance is my passion", "Cooking is my thing" are likings; "Painting is my escape" stays a fact', () => {
    expect(formed('Dance is my passion.')).toEqual(['preference | Ann | Dance is my passion.']);
    expect(formed('Cooking is my thing.')).toEqual(['preference | Ann | Cooking is my thing.']);
    expect(formed('Painting is my escape.')).toEqual(['fact | Ann | Painting is my escape.']);
  });

  it('"I\'m totally into hiking", "I\'m all about healthy food", "I\'ve always been passionate about …"', () => {
    expect(formed("I'm totally into hiking.")).toEqual(["preference | Ann | I'm totally into hiking."]);
    expect(formed("I'm all about healthy food.")).toEqual(["preference | Ann | I'm all about healthy food."]);
    expect(kinds("I'm really passionate about making sure veterans are supported.")).toEqual(['preference']);
  });

  it('near-misses: of a pronoun, of what was said before', () => {
    none(["It's my passion.", "I'm really into it.", "I'm all about that!"]);
  });
});

describe('readTurn: what the speaker is down for, named', () => {
  it('"I\'m down for a hike", "I\'m always down to give movie recommendations" are likings', () => {
    expect(formed("I'm down for a hike with you and your dogs.")).toEqual([
      "preference | Ann | I'm down for a hike with you and your dogs.",
    ]);
    expect(formed("Anytime! I'm always down to give movie recommendations.")).toEqual([
      "preference | Ann | I'm always down to give movie recommendations.",
    ]);
  });

  it('near-misses: down for what was said before, a resolve, a low mood', () => {
    none([
      "I'm down for that!",
      "I'm down to try it.",
      "I'm down to give it a shot.",
      "I'm game for the challenge!",
      "I'm feeling down.",
    ]);
  });
});

describe('readTurn: what the speaker has been busy with, named', () => {
  it('"I\'ve been busy with my garden", "Been busy renovating the kitchen" are events', () => {
    expect(formed("I've been busy with my garden.")).toEqual(["event | Ann | I've been busy with my garden."]);
    expect(formed('Been busy renovating the kitchen.')).toEqual(['event | Ann | Been busy renovating the kitchen.']);
    expect(formed('Keeping busy with pottery these days.')).toEqual([
      'event | Ann | Keeping busy with pottery these days.',
    ]);
  });

  it('near-misses: how busy only, busy with what was said before', () => {
    none(['Been super busy with work.', 'Busy at work.', "I've been busy with everything.", "I'm busy with it."]);
  });
});

describe('readTurn: an activity under way, said in few words', () => {
  it('what the speaker is learning, training for or writing is a fact', () => {
    expect(formed("I'm learning Spanish.")).toEqual(["fact | Ann | I'm learning Spanish."]);
    expect(formed("We're training for a marathon.")).toEqual(["fact | Ann | We're training for a marathon."]);
    expect(formed("I've been studying piano.")).not.toEqual([]);
  });

  it('near-misses: running late, working on it, learning a lot', () => {
    none(["I'm running late.", "I'm working on it.", "I'm learning a lot.", "I'm playing with you."]);
  });
});

describe('readTurn: a step of life in few words, and when it starts', () => {
  it('getting married, a puppy, a baby, twins form a memory', () => {
    expect(formed('We got engaged!')).toEqual(['event | Ann | We got engaged!']);
    expect(formed('I got a puppy.')).toEqual(['event | Ann | I got a puppy.']);
    expect(formed('We had a baby.')).toEqual(['event | Ann | We had a baby.']);
    expect(formed('I have twins.')).toEqual(['fact | Ann | I have twins.']);
  });

  it('"I got the job!" forms a memory, typed in any case', () => {
    expect(formed('I got the job!!!')).toEqual(['event | Ann | I got the job!!!']);
    expect(formed('OMG I GOT THE JOB!!!')).toEqual(['event | Ann | I got the job!!!']);
    // A word or two in capitals is no turn typed in capitals.
    expect(formed('my dog Max LOVES the beach near our house')).toEqual([
      'preference | Max | my dog Max LOVES the beach near our house',
    ]);
  });

  it('news announced before it is said is the statement ("there\'s something I want to tell you …")', () => {
    expect(formed('so i wanted to let you in on some cool news i just got a new car')).toEqual([
      'event | Ann | I just got a new car',
    ]);
    expect(formed("there's something i want to tell you i went hiking last week")).toEqual([
      'event | Ann | I went hiking last week',
    ]);
    expect(formed("I have some exciting news: we're expecting a baby!")).toEqual([
      "fact | Ann | We're expecting a baby!",
    ]);
    // With the month it is due, it stays an event, dated.
    expect(formed("We're expecting our second baby in June!")).toEqual([
      "event | Ann | We're expecting our second baby in June!",
    ]);
    none(['I have some news about the project.', "I'm expecting a call."]);
  });

  it('how the speaker feels, before the news, set off by a comma: the news is the statement', () => {
    expect(formed("I'm so excited, we're moving to Denver next month")).toEqual([
      "task | Ann | We're moving to Denver next month",
    ]);
    none(["I'm so excited for you, that's amazing"]);
  });

  it('near-misses: a good time, a moment, what was said', () => {
    none(['I had a blast.', 'I got it.', 'I got a minute.', 'We had a great day.', 'I got the idea from a friend.']);
  });

  it('"Starting next Monday" after the news goes on with it', () => {
    expect(formed('I got a new job at a bakery! Starting next Monday.')).toEqual([
      'fact | Ann | I got a new job at a bakery! Starting next Monday.',
    ]);
    expect(formed("I got a new job at a bakery! Starting to think it's a bad idea though.")).not.toContain(
      "fact | Ann | I got a new job at a bakery! Starting to think it's a bad idea though.",
    );
  });
});

describe('readTurn: "I\'ve got", and a plan typed with no subject', () => {
  it('"I\'ve got" says what the speaker has, as "I have" does', () => {
    expect(formed("I've got two kids and a dog.")).toEqual(["fact | Ann | I've got two kids and a dog."]);
    expect(formed('ive got 2 kids')).toEqual(["fact | Ann | I've got 2 kids"]);
  });

  it('family or a pet said in few words forms a memory', () => {
    expect(formed('I have a dog.')).toEqual(['fact | Ann | I have a dog.']);
    expect(formed('We have 3 cats and a hamster.')).toEqual(['fact | Ann | We have 3 cats and a hamster.']);
    expect(formed('I have a little sister.')).toEqual(['fact | Ann | I have a little sister.']);
    expect(formed('I have no siblings.')).toEqual(['fact | Ann | I have no siblings.']);
    expect(formed('i dont have any kids or pets')).toEqual(["fact | Ann | I don't have any kids or pets"]);
  });

  it('near-misses: nothing planned, a story to tell', () => {
    none(['I have no big events coming up.', "We don't have any plans this weekend.", 'Nothing much going on here.']);
    expect(formed("I've got a funny story for you.")).toEqual([]);
  });

  it('near-misses: an ailment, a question, a lot', () => {
    none([
      "I've got a headache.",
      "I've got a question for you.",
      "I've got a lot on my plate.",
      'I have a plan.',
      'I have a question.',
    ]);
  });

  it('"Gonna …" or "Going to visit …" with the day it names is a task', () => {
    expect(formed('Gonna visit my grandma in Ohio next weekend.')).toEqual([
      'task | Ann | Gonna visit my grandma in Ohio next weekend.',
    ]);
    expect(formed('Going to visit my grandma in Ohio this weekend.')).toEqual([
      'task | Ann | Going to visit my grandma in Ohio this weekend.',
    ]);
    // Not an activity that was judged, nor one done.
    none(['Going to the beach was fun.']);
    expect(formed('We went camping last weekend.')).toEqual(['event | Ann | We went camping last weekend.']);
  });
});

describe('readTurn: a condition that rules out no food', () => {
  it('is a lasting fact of whom the clause names, typed in any case', () => {
    expect(formed('my son has adhd')).toEqual(["fact | Ann's son | my son has adhd"]);
    expect(formed('I have migraines.')).toEqual(['fact | Ann | I have migraines.']);
    expect(formed('I was diagnosed with depression last year.')).toEqual([
      'fact | Ann | I was diagnosed with depression last year.',
    ]);
  });

  it('near-misses: what the speaker has to do, a passing ailment', () => {
    none(['I have to add something.', 'I have a headache.']);
  });
});

describe('readTurn: an "and" that opens the sentence', () => {
  it('is left out of the memory, with an interjection after it', () => {
    expect(formed('oh and i have a bad knee so nothing too steep')).toEqual([
      'fact | Ann | I have a bad knee so nothing too steep',
    ]);
    expect(formed('And BTW, I started my own online clothing store last month.')).toEqual([
      'event | Ann | I started my own online clothing store last month.',
    ]);
    expect(formed('And in my free time, I enjoy curling up with a good book.')).toEqual([
      'preference | Ann | In my free time, I enjoy curling up with a good book.',
    ]);
  });
});

describe('readTurn: an emoji ends a sentence as "!" does', () => {
  it('what follows an emoji is read on its own', () => {
    expect(formed('omg guess what 😱 i got into grad school!!! starting in september 🎓')).toEqual([
      'event | Ann | I got into grad school!!! starting in september 🎓',
    ]);
    expect(formed('we just got back from hawaii 🌺 best vacation ever')).toEqual([
      'event | Ann | we just got back from hawaii 🌺',
    ]);
  });

  it('near-misses: an emoji said as a word, a pronoun that goes on with it', () => {
    expect(formed('i love 🍕 and pasta')).toEqual(['preference | Ann | I love 🍕 and pasta']);
    expect(formed('I adopted a puppy last week 🐶 his name is Max')).toEqual([
      'event | Ann | I adopted a puppy last week 🐶 his name is Max',
    ]);
  });
});
