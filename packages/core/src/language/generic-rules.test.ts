import { describe, expect, it } from 'vitest';
import { formed, none } from './formed.fixture.js';

/**
 * Remarks about everyone, and what was shown acting on the speaker (issue 28, precision): the turn
 * keeps them, they form no memory; each rule with the near-misses that must still form one.
 */

describe('readTurn: "our" and "we" said of everyone', () => {
  it('what "our" things can or will do, and what "we" must do to ourselves, form nothing', () => {
    none([
      'Our actions, no matter how small, can have a big impact.',
      'Our stories can be so inspiring and encouraging to others who face the same challenges.',
      'Together, our impact will surely last.',
      'We gotta push ourselves out of our comfort zones to experience new things!',
      'We need to look after each other in hard times.',
    ]);
  });

  it('what everyone has said with "our", and "we" that says it is everyone, form nothing', () => {
    none([
      'Tough news. Yeah, our health can really put a damper on things.',
      'Our surroundings can really affect our mood and how much zen we can get from our routine.',
      'Our planet needs more love.',
      'We humans need connection.',
      'We as a society need to do better.',
      'We all make mistakes, but it is important to learn from them.',
    ]);
  });

  it('near-misses: "we all" with a verb of the past is the speaker\'s group', () => {
    expect(formed('We all hiked the trails last week - the views were amazing!')).toEqual([
      'event | Ann | We all hiked the trails last week - the views were amazing!',
    ]);
    expect(formed('We all made our own pots, it was fun and therapeutic!')).toEqual([
      'event | Ann | We all made our own pots, it was fun and therapeutic!',
    ]);
  });

  it('the speaker\'s household said with "our" is the speaker\'s own', () => {
    expect(formed("Knowing they're happy about our marriage is awesome and so comforting.")).toEqual([
      "fact | Ann | Knowing they're happy about our marriage is awesome and so comforting.",
    ]);
    expect(formed('One of the criteria for our choice of apartment was the bar nearby.')).toEqual([
      'fact | Ann | One of the criteria for our choice of apartment was the bar nearby.',
    ]);
    expect(formed('Our new home can be so cozy in winter.')).not.toEqual([]);
    // The idiom is the speaker's decision, and "Our" opening a clause is no person.
    expect(formed("Our minds are made up, we're moving to Spain.")).toEqual([
      "fact | Ann | Our minds are made up, we're moving to Spain.",
    ]);
    expect(formed('Our lives changed when we moved to Lisbon.')).toEqual([
      'fact | Ann | Our lives changed when we moved to Lisbon.',
    ]);
    // A likeness names no household, and "our kids" may be everyone's.
    none(['Taking care of nature is like taking care of our house.', 'Having a safe place for our kids matters.']);
  });

  it('near-misses: a date, an "I", or a plan with no "ourselves"', () => {
    expect(formed('Our team will play in the finals next Friday.')).not.toEqual([]);
    expect(formed('Our garden can finally be watered by the system I built.')).not.toEqual([]);
    expect(formed('We need to get the word out about the chili cook-off at the fundraiser.')).toEqual([
      'task | Ann | We need to get the word out about the chili cook-off at the fundraiser.',
    ]);
  });
});

describe('readTurn: what was shown, acting on the speaker', () => {
  it('a picture or its colours acting on the speaker, and "moments like these", form nothing', () => {
    none([
      'The colors make me feel calm.',
      'The pic takes me back.',
      'That photo really makes me want to travel again.',
      'Moments like these remind me how much kindness matters.',
      'Times like that make me love sports even more.',
      // The chat itself, or the picture the other speaker shared, named.
      'Conversations like this remind me why I love what I do.',
      'Seeing this pic just made me appreciate my love of reading even more.',
    ]);
  });

  it("near-misses: what it reminds the speaker of is the speaker's own", () => {
    expect(formed('That pic reminds me of when I was younger.')).not.toEqual([]);
    expect(formed('This photo made me think of a gorgeous blossom tree near my home.')).not.toEqual([]);
    expect(formed("Moments like this remind me why I'm chasing my dream.")).not.toEqual([]);
  });
});

describe('readTurn: a judgement that what was said makes sense', () => {
  it('"… makes sense" at the end judges what was said or advised: it forms nothing', () => {
    none(['Doing research and readying myself emotionally makes sense.', 'Your plan makes total sense!']);
  });

  it('near-misses: what it makes sense for, or something seen that is named', () => {
    expect(formed('Moving to Lisbon makes sense for my job.')).not.toEqual([]);
    expect(formed('Seeing those pups made me want a dog.')).not.toEqual([]);
  });
});

describe('readTurn: a dream said as a plan', () => {
  it('"I\'m gonna make my dreams come true!" is said in passing; a plan with what and when is a task', () => {
    none(["I'm gonna make my dreams come true!"]);
    expect(formed("I'm going to open my own bakery next month.")).toEqual([
      "task | Ann | I'm going to open my own bakery next month.",
    ]);
  });
});

describe('readTurn: catching up without saying what happened', () => {
  it('when the speakers last talked, or that something happened, and how the time was, form nothing', () => {
    none([
      'Been a busy week since we talked.',
      'Bob, since we talked, it has been tough.',
      "Haven't seen you since we last talked.",
      'Some pretty cool stuff happened since our last chat.',
      'Something exciting happened recently for me.',
      'Quite a week since we last talked - something awesome happened to me!',
    ]);
  });

  it('near-misses: what happened is said', () => {
    expect(formed('Since we last spoke, I started a pottery class.')).toEqual([
      'event | Ann | Since we last spoke, I started a pottery class.',
    ]);
    expect(formed('Something awesome happened - I got a puppy from the shelter!')).not.toEqual([]);
    expect(formed("Since we talked I've been thinking about my mom's influence on my cooking.")).not.toEqual([]);
  });
});

describe("readTurn: the speaker's attitude to what is the listener's", () => {
  it("understanding, remembering or noticing what is the listener's, awe, wishes and crossed fingers form nothing", () => {
    none([
      'I totally understand the satisfaction you get from fixing cars.',
      'I remember when you started working on these sorta things.',
      'By the way, I noticed your pet in the picture.',
      "I understand how frustrating it can be when things don't go as planned.",
      "I'm in awe of your courage.",
      'Loving your newfound passion.',
      'Wishing you a harmonious day ahead, my friend!',
      "I'll keep my fingers crossed for you!",
    ]);
  });

  it('near-misses: what the speaker remembers or saw of their own', () => {
    expect(formed('I remember my first pottery class in 2019.')).toEqual([
      'event | Ann | I remember my first pottery class in 2019.',
    ]);
    expect(formed('I saw a great concert last week.')).toEqual(['event | Ann | I saw a great concert last week.']);
  });
});

describe('readTurn: "like" that means "as if" or "such as" is no liking', () => {
  it('"it feels like …", "I feel like …", "sounds like …" are no preference', () => {
    const kinds = (text: string) => formed(text).map((l) => l.split(' | ')[0]);
    expect(kinds("Some days it feels like I'm trying to juggle my studies and my relationship.")).not.toContain(
      'preference',
    );
    expect(kinds('I feel like a different person now.')).not.toContain('preference');
    expect(kinds('Rock climbing sounds like a fun way to push my limits.')).not.toContain('preference');
  });

  it('near-misses: "like" as the verb of a liking', () => {
    expect(formed('I just like playing chess for fun!')).toEqual([
      'preference | Ann | I just like playing chess for fun!',
    ]);
    expect(formed('My kids really like hiking in the mountains.')).toEqual([
      "preference | Ann's kids | My kids really like hiking in the mountains.",
    ]);
  });
});

describe('readTurn: a guess with "must" at what someone lives', () => {
  it('"It must be …", "That must have been …", "Must have been …" form nothing, nor join the statement before', () => {
    none([
      'That must have been hard.',
      'Must have been traumatizing for you guys.',
      'They must be so proud of you!',
      'It must be awesome but it must have its own struggles too.',
    ]);
    expect(
      formed(
        'I was pondering our chat about fame and relationships. It must be awesome but it must have its own struggles.',
      ),
    ).toEqual(['fact | Ann | I was pondering our chat about fame and relationships.']);
  });

  it("near-misses: the speaker's own clause before the guess, and what must be done by a time", () => {
    expect(formed('Never been to an animal shelter before, but it must be great!')).toEqual([
      'fact | Ann | Never been to an animal shelter before, but it must be great!',
    ]);
    expect(formed("I visited my grandma's farm last week. It has a big red barn.")).toEqual([
      "event | Ann | I visited my grandma's farm last week. It has a big red barn.",
    ]);
    expect(formed('I must renew my passport by Friday.')).toEqual(['task | Ann | I must renew my passport by Friday.']);
  });
});

describe('readTurn: leaving the chat, a hope without its "I", encouragement of oneself', () => {
  it('"I need to go now", "Got to go now, …", "Hope I\'ll …", "I gotta have faith", "We won\'t lose focus" form nothing', () => {
    none([
      'I need to go now.',
      'I have to go now.',
      'Got to go now, I have a lot of work to do!',
      "Hope I'll get to see it in person soon!",
      'I gotta have faith and patience.',
      "We won't lose focus on our goals.",
    ]);
  });

  it('near-misses: where the speaker must go, a plan with its date, losing what is theirs', () => {
    expect(formed('I need to go to the dentist tomorrow.')).toEqual([
      'task | Ann | I need to go to the dentist tomorrow.',
    ]);
    expect(formed('I have to run a marathon next month.')).toEqual([
      'task | Ann | I have to run a marathon next month.',
    ]);
    expect(formed("We won't lose our house after all.")).not.toEqual([]);
  });
});

describe('readTurn: said to the listener by name', () => {
  it('a clause of no one that ends by calling the listener by name forms nothing', () => {
    none([
      'Enjoy the collaborations, Bob!',
      'Playing guitar in a rock band is awesome, Bob! It will bring you a lot of emotions.',
      'Love the quote, Bob.',
    ]);
  });

  it("near-misses: the speaker's own, someone named, another name", () => {
    expect(formed("I've had some tough times with my business, Bob.")).toEqual([
      "fact | Ann | I've had some tough times with my business, Bob.",
    ]);
    expect(formed('Got a new puppy, Bob!')).not.toEqual([]);
    expect(formed('Ana moved to Lisbon, Bob.')).not.toEqual([]);
    // What the speaker does, the "I" left out; "Playing guitar in a rock band is awesome" says it of no one.
    expect(formed('Playing guitar in a rock band this summer, Dave!')).not.toEqual([]);
  });
});

describe('readTurn: "I must say, …" opens a remark, it sets no task', () => {
  it('"must say" / "must admit" / "have to say" are no tasks; what follows decides', () => {
    expect(formed('I must say, I love my new bike.')).toEqual(['preference | Ann | I must say, I love my new bike.']);
    expect(formed('I must admit I love cooking.')).toEqual(['preference | Ann | I must admit I love cooking.']);
    expect(formed('I have to say, the hike was amazing.').filter((l) => l.startsWith('task'))).toEqual([]);
  });

  it('near-misses: something to do with "must" or "have to" is still a task', () => {
    expect(formed('I must renew my passport next week.')).toEqual(['task | Ann | I must renew my passport next week.']);
    expect(formed('I have to say goodbye to my old car tomorrow.')).toEqual([
      'task | Ann | I have to say goodbye to my old car tomorrow.',
    ]);
  });
});

describe('readTurn: what is good for everyone, said of no one', () => {
  it('an activity said to be key, a way to, helpful or a difference for all of us forms nothing', () => {
    none([
      'Taking care of ourselves and looking out for our well-being is key.',
      'Taking time off for ourselves and our family is so important.',
      'Taking breaks and switching up the scenery is a great way to feel recharged.',
      'Taking it one day at a time is the way to go.',
      'Loving what you do and bringing joy to others is so rewarding.',
      'Taking time for yourself and recognizing your needs can make a difference.',
      'Making a schedule for studying and hobbies can go a long way.',
      'Taking a second to appreciate those moments makes life much better!',
      // "like that" is no clause of its own.
      'Working together on projects like that really brings people closer.',
    ]);
  });

  it("near-misses: what the speaker values, or does, is the speaker's", () => {
    expect(formed('Staying in shape is important to me.')).not.toEqual([]);
    expect(formed('Making sure my dogs stay healthy is key.')).not.toEqual([]);
    expect(formed('Painting is a great way for me to relax.')).not.toEqual([]);
    expect(formed('Been practicing hard every day since my injury in March.')).not.toEqual([]);
    expect(formed('Working on a song that is about my dad.')).not.toEqual([]);
  });
});

describe('readTurn: understanding what the listener lives', () => {
  it('"I know how it feels", "I get how frustrating it can be" form nothing', () => {
    none([
      'I get how frustrating it can be not to find pet-friendly spots.',
      'I understand how it feels to miss the trails.',
      'I know what you mean.',
      'I totally get how life can be busy.',
      'I understand the stress of moving house.',
    ]);
  });

  it('near-misses: what the speaker knows how to do', () => {
    expect(formed('I know how to fix old engines.')).not.toEqual([]);
    expect(formed('I understand Spanish and Portuguese.')).not.toEqual([]);
  });
});

describe('readTurn: a guess at what the listener does, its gerund the subject', () => {
  it('"Learning about the connections between them must be so cool" forms nothing', () => {
    none(['Learning about the connections between them must be so cool.', 'Raising three kids must be exhausting!']);
  });

  it("near-misses: a gerund of the speaker's own", () => {
    expect(formed('Fixing my old bike must have cost me a fortune.')).not.toEqual([]);
    expect(formed('Raising my three kids must be the hardest thing I have done.')).not.toEqual([]);
  });
});

describe('readTurn: how the speaker is doing now, the "I" left out', () => {
  it('a passing state with no subject forms nothing', () => {
    none([
      'Just trying to find a balance between work and other activities.',
      "Busy few weeks for sure, but I'm pushing through.",
      'Determined and passionate on one hand, but feeling overwhelmed and stressed on the other.',
      'Taking things one step at a time.',
      'Just trying to enjoy the moment.',
    ]);
    expect(formed("My week's been good. Just trying to find a balance between work and other activities.")).toEqual([]);
  });

  it('near-misses: an event, a lasting state, what the state is about', () => {
    expect(formed('Just got a new puppy!')).toEqual(['event | Ann | Just got a new puppy!']);
    expect(formed('Just started a new job at the hospital.')).toEqual([
      'fact | Ann | Just started a new job at the hospital.',
    ]);
    expect(formed('Been vegetarian for ten years.')).toEqual(['fact | Ann | Been vegetarian for ten years.']);
    expect(formed('Been busy volunteering at the homeless shelter and keeping fit.')).toEqual([
      'event | Ann | Been busy volunteering at the homeless shelter and keeping fit.',
    ]);
    expect(formed('Trying to eat healthier these days.')).toEqual(['fact | Ann | Trying to eat healthier these days.']);
  });

  it('the verb that opens it is no person ("Got married …" is about the speaker, not "Got")', () => {
    expect(formed('Got married last weekend <3')).toEqual(['event | Ann | Got married last weekend <3']);
    expect(formed('Moved to Lisbon in May.')).toEqual(['fact | Ann | Moved to Lisbon in May.']);
    // A name that opens the sentence still names whom it is about.
    expect(formed('Will started a new job at the bakery.')).toEqual([
      'fact | Will | Will started a new job at the bakery.',
    ]);
  });
});

describe('readTurn: an activity as the subject, judged', () => {
  it('a gerund phrase of any length that is judged or advised forms nothing', () => {
    none([
      'Taking time to detach and find peace is important in this crazy world.',
      'Taking care of a pup in the city is tough but doable with the right approach.',
      'Making sure they stay healthy and happy is key.',
      'Doing some research on similar algorithms or asking other programmers for advice could be beneficial.',
    ]);
  });

  it('what an activity saves, takes or costs anyone forms nothing', () => {
    none(['Cooking at home saves a lot of money.', 'Learning new things takes time.']);
    expect(formed('Working on my car takes all my free time.')).not.toEqual([]);
  });

  it('near-misses: what the speaker does, the "I" left out, and a clause of its own inside it', () => {
    expect(formed('Working on a new song that is really catchy.')).toEqual([
      'fact | Ann | Working on a new song that is really catchy.',
    ]);
    expect(formed('Making sure I have everything ready for the trip.')).not.toEqual([]);
    expect(formed('Taking care of my dogs is my whole life.')).not.toEqual([]);
    // How it has gone, in many words: the speaker's own.
    expect(formed("Taking care of them with one arm has been tricky but we're managing.")).not.toEqual([]);
  });
});

describe('readTurn: what the listener said, judged by how it sounds', () => {
  it('a noun or an activity that "sounds" good forms nothing', () => {
    none([
      'A pastry party sounds awesome, count me in!',
      'Camping with the kids sounds like fun.',
      'Taking a break and having fun sounds so refreshing.',
    ]);
  });

  it("near-misses: the speaker's own, and the speaker's clause in front of it", () => {
    expect(formed("My plan sounds crazy but I'm going to quit my job.")).not.toEqual([]);
    expect(formed('I usually take public transport, but biking sounds like a fun way to get around.')).not.toEqual([]);
  });
});

describe("readTurn: a line someone said, quoted first, is not the speaker's own", () => {
  it('"\\"I\'m gonna make him an offer he can\'t refuse\\" - now that\'s motivation!" forms nothing', () => {
    expect(
      formed(
        "I watched The Godfather last night. \"I'm gonna make him an offer he can't refuse\" - now that's motivation!",
      ),
    ).toEqual(['event | Ann | I watched The Godfather last night.']);
    none(['"We will fight on the beaches" - I love that speech!']);
  });

  it('near-misses: a title in quotes, a line the speaker makes theirs', () => {
    expect(formed('"The Night We Met" is my favourite song.')).toEqual([
      'preference | Ann | "The Night We Met" is my favourite song.',
    ]);
    expect(formed('My motto is "you miss 100% of the shots you don\'t take".')).toEqual([
      'fact | Ann | My motto is "you miss 100% of the shots you don\'t take".',
    ]);
  });
});
