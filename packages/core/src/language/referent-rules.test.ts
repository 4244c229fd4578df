import { describe, expect, it } from 'vitest';
import { questionAsked, remarkMade, sentences } from './statements.js';
import { formed, NOON, none, statementsOf } from './formed.fixture.js';
import { readTurn } from './turn-reading.js';

/**
 * Fragments cut from their referent (issue 28, precision): a clause whose object or subject
 * stands for something said elsewhere joins the clause or the question that names it, or forms
 * nothing; each rule with the near-misses that must still form a memory.
 */

describe('readTurn: an object whose noun is left out, or judged, refers back', () => {
  it('"another", "a few more", "another one" join the clause that names what they are more of; alone they form nothing', () => {
    expect(formed('Turtles really bring me joy. I saw another at a pet store and just had to get him.')).toEqual([
      'fact | Ann | Turtles really bring me joy. I saw another at a pet store and just had to get him.',
    ]);
    none([
      'I just submitted a few more last week!',
      'I saw another at a pet store and just had to get him.',
      'I started writing another one while I wait to hear back.',
    ]);
  });

  it('"I find it …" says what the speaker thinks of what the clause before names; alone it forms nothing', () => {
    expect(formed("I'm writing a script about a girl who looks for a home. I find it really rewarding.")).toEqual([
      "fact | Ann | I'm writing a script about a girl who looks for a home. I find it really rewarding.",
    ]);
    none(['I find it really rewarding and emotional.', 'I found them so helpful.', 'I find it helps me relax.']);
  });

  it('"I see it as …", "I got it as a gift" point back: the remark before is quoted, alone they form nothing', () => {
    expect(
      formed(
        "I'm trying to see it as a chance to explore other hobbies.",
        'But hey, sometimes setbacks lead to new opportunities.',
      ),
    ).toEqual([
      `fact | Ann | Replying to Bob's "But hey, sometimes setbacks lead to new opportunities.": I'm trying to see it as a chance to explore other hobbies.`,
    ]);
    none(['Honestly, I see it as a chance to grow.', 'I got it as a gift from a close friend.']);
  });

  it('"that one" after a preposition points back as "that" does; one that names its noun does not', () => {
    none(["Nah, I'm not familiar with that one.", 'I fell in love with that one.']);
    expect(formed("I'm obsessed with this one game called Catan.")).toEqual([
      "fact | Ann | I'm obsessed with this one game called Catan.",
    ]);
  });

  it('near-misses: the noun said, or "it" standing for what comes after it', () => {
    expect(formed('I finished another painting last week.')).toEqual([
      'event | Ann | I finished another painting last week.',
    ]);
    expect(formed('I submitted a few more scripts to the festival.')).toEqual([
      'event | Ann | I submitted a few more scripts to the festival.',
    ]);
    expect(formed('I find it helpful to plan my week on Sundays.')).toEqual([
      'fact | Ann | I find it helpful to plan my week on Sundays.',
    ]);
  });
});

describe('readTurn: a yes or no answers the yes/no question that a remark came after', () => {
  const asked = 'Is the dressing a family secret? I love trying new recipes!';
  it('"Nah, …" after "Is the dressing a family secret? I love …" answers the question, quoted with it', () => {
    expect(formed("Nah, it's just my homemade dressing.", asked)).toEqual([
      'fact | Ann | Asked "Is the dressing a family secret?": Nah, it\'s just my homemade dressing.',
    ]);
  });

  it('near-misses: a reply without yes or no answers nothing; a request is not asked; the remark may still be replied to', () => {
    expect(formed("It's just my homemade dressing.", asked)).toEqual([]);
    expect(
      formed(
        'Sure. There are so many trails near the river. I will show you the best trails near there.',
        'Can you show me the best trails by the river? Thanks!',
      ),
    ).toEqual([]);
    expect(
      formed(
        'Yeah! I have been using that app on my phone to practice too!',
        'Have you found any good resources for learning French? I have been using this app.',
      ),
    ).toEqual([
      'fact | Ann | Replying to Bob\'s "I have been using this app.": I have been using that app on my phone to practice too!',
    ]);
  });
});

describe('readTurn: an answer that begins with a clause that says nothing alone', () => {
  it('the clause after it that refers back goes on with the answer, the question quoted with both', () => {
    expect(
      formed('Since I was 17 or so. I find it so empowering and cathartic.', 'How long have you been creating art?'),
    ).toEqual([
      'fact | Ann | Asked "How long have you been creating art?": Since I was 17 or so. I find it so empowering and cathartic.',
    ]);
    expect(
      formed('Super cozy and comfy. My furry friends love them!', 'Do you have any pictures of the new beds?'),
    ).toEqual([
      'fact | Ann | Asked "Do you have any pictures of the new beds?": Super cozy and comfy. My furry friends love them!',
    ]);
  });

  it('near-misses: nothing after it that says something, or a reaction first, or no question', () => {
    expect(formed('Since I was 17 or so. Time flies!', 'How long have you been creating art?')).toEqual([]);
    expect(
      formed('Your garden looks amazing, by the way. We went to the lake last weekend.', 'Did you go anywhere fun?'),
    ).toEqual(['event | Ann | We went to the lake last weekend.']);
    expect(formed('Since I was 17 or so. I find it so empowering and cathartic.')).toEqual([]);
  });
});

describe('readTurn: a question that refers back is quoted with the sentence before it', () => {
  it('what "it" or "they" in the question stands for is said before it, and the memory quotes both', () => {
    expect(formed("They're called Peruvian Lilies.", 'Those flowers look great! What kind are they?')).toEqual([
      'fact | Ann | Asked "Those flowers look great! What kind are they?": They\'re called Peruvian Lilies.',
    ]);
    expect(
      formed(
        "I'm using it to stay organized and motivated.",
        'That whiteboard has a bunch of good ideas! How have you been using it?',
      ),
    ).toEqual([
      'fact | Ann | Asked "That whiteboard has a bunch of good ideas! How have you been using it?": I\'m using it to stay organized and motivated.',
    ]);
  });

  it('near-misses: a question that names what it asks about is quoted alone; one that names nothing quotes nothing', () => {
    expect(
      formed(
        'Yes, it was amazing, they played for three hours.',
        'I went hiking last week. Did you go to the concert on Saturday?',
      ),
    ).toEqual([
      'event | Ann | Asked "Did you go to the concert on Saturday?": Yes, it was amazing, they played for three hours.',
    ]);
    expect(formed("I'm using it to stay organized and motivated.", 'Nice! How have you been using it?')).toEqual([]);
  });

  it('an answer without a verb that only reacts or agrees answers nothing', () => {
    expect(
      formed('Kayaking sounds awesome!', "It's a fun way to paddle on a river. What are your thoughts on kayaking?"),
    ).toEqual([]);
    expect(
      formed('Your completely right!', 'You must love your turtles. What do you love most about turtles?'),
    ).toEqual([]);
  });
});

describe('readTurn: "her", "them" or "there" inside a clause of the speaker refers back', () => {
  it('joins the statement before it that names whom or where; first in a turn it stays as it is', () => {
    expect(
      formed('My bathroom has an aesthetic vibe. Once I read a self-discovery book there and it resonated with me.'),
    ).toEqual([
      'fact | Ann | My bathroom has an aesthetic vibe. Once I read a self-discovery book there and it resonated with me.',
    ]);
    expect(formed('My mom had a big passion for cooking. I can still remember the smell of her special dish.')).toEqual(
      ["event | Ann's mom | My mom had a big passion for cooking. I can still remember the smell of her special dish."],
    );
    expect(formed('Iron Man is my top pick. I love his tech and that sarcastic humor.')).toEqual([
      'fact | Ann | Iron Man is my top pick. I love his tech and that sarcastic humor.',
    ]);
  });

  it('near-misses: whom or where it is, is named before it in the clause', () => {
    expect(formed('I adopted a cat last year. I went to the park and played there all day.')).toEqual([
      'event | Ann | I adopted a cat last year.',
      'event | Ann | I went to the park and played there all day.',
    ]);
    expect(formed('I adopted a cat last year. I met Anna at the gym and we talk about her kids.')).toHaveLength(2);
    expect(formed('I adopted a cat last year. I have two puppies and I walk them every morning.')).toHaveLength(2);
  });
});

describe('readTurn: "one" in an opening phrase refers back', () => {
  it('"Whenever I\'m working on one, …" joins the clause that names what "one" is; alone it forms nothing', () => {
    expect(
      formed("I restore old cars. Whenever I'm working on one, it's like I'm connecting back with myself."),
    ).toEqual([
      "fact | Ann | I restore old cars. Whenever I'm working on one, it's like I'm connecting back with myself.",
    ]);
    none(["Whenever I'm working on one, it's like I'm connecting back with myself.", "I've been saving up for one."]);
  });

  it('near-misses: an opening phrase that names its object', () => {
    expect(formed("Whenever I'm working on my car, it's like I'm connecting back with myself.")).not.toEqual([]);
    expect(formed('When I was in Paris, I bought a painting for my mom.')).not.toEqual([]);
  });
});

describe('readTurn: news announced joins the statement that says it', () => {
  it('an announcement and what it announces form one memory, of the kind the second says', () => {
    expect(
      formed(
        "That event sounds great! Something really exciting happened to me - I just had a big life change! Here's my new mansion - pretty cool huh?",
      ),
    ).toEqual([
      "fact | Ann | Something really exciting happened to me - I just had a big life change! Here's my new mansion",
    ]);
    expect(formed('Exciting news! I signed up for a pottery workshop next month.')).toEqual([
      'event | Ann | Exciting news! I signed up for a pottery workshop next month.',
    ]);
    expect(formed('I have some great news to share with you! I got the job at the bakery.')).toHaveLength(1);
  });

  it('alone, an announcement forms nothing', () => {
    none([
      'I have some big news to share!',
      'Got some great news!',
      'Something really exciting happened to me - I just had a big life change!',
    ]);
  });

  it('near-misses: news said after a dash, no news, catching up', () => {
    expect(formed("Crazy news - I'm teaming up with a local garage.")).toEqual([
      "fact | Ann | Crazy news - I'm teaming up with a local garage.",
    ]);
    expect(formed('Nah, no changes for me. I still drink soda every day.')).toEqual([
      'fact | Ann | I still drink soda every day.',
    ]);
    expect(formed('Since we last spoke, some big things have happened. Last week I went to a parade.')).toEqual([
      'event | Ann | Last week I went to a parade.',
    ]);
    expect(formed('Since last chat, some things have happened. I had a car accident last Friday.')).toEqual([
      'event | Ann | I had a car accident last Friday.',
    ]);
  });
});

describe('readTurn: a fragment whose referent is in another sentence of the turn, or in another turn', () => {
  it('"it", "them" or "that" after a verb in -ing or "to …" joins the sentence that names it; alone it forms nothing', () => {
    expect(
      formed(
        "I've been building a treehouse for my kids. I got so close to finishing it but I just couldn't figure it out.",
      ),
    ).toEqual([
      "fact | Ann | I've been building a treehouse for my kids. I got so close to finishing it but I just couldn't figure it out.",
    ]);
    none([
      "I got so close to finishing it but I just couldn't figure it out.",
      'I spent ages restoring it.',
      'I lost some of it because I forgot to save.',
      'I really should start doing that as well.',
      "I'll make sure to remember this when I need the encouragement the most.",
      "I've been working on it for two years now.",
      'I worked with a local artist to make it happen.',
    ]);
    expect(formed("My online clothes store is open! I've been dreaming of this for a while now.")).toEqual([
      "fact | Ann | My online clothes store is open! I've been dreaming of this for a while now.",
    ]);
  });

  it('a verb that needs an object said with only when ("I\'m starting next month") joins the sentence that says what; alone it forms nothing', () => {
    expect(formed("I signed up for a pottery class. I'm starting next month.")).toEqual([
      "event | Ann | I signed up for a pottery class. I'm starting next month.",
    ]);
    // Asked "When do you start?" after the other speaker named the job: the question is quoted
    // with the sentence that names what starts (a feeling for the listener in between names nothing).
    expect(
      formed(
        "Thank you! I'm starting next month.",
        "Congrats on getting your dream job. I'm super stoked for you. When do you start?",
      ),
    ).toEqual([
      `task | Ann | Asked "Congrats on getting your dream job. When do you start?": I'm starting next month.`,
    ]);
    // Without a sentence that names it, what starts is nowhere.
    expect(formed("Thank you! I'm starting next month.", "I'm so happy for you! When do you start?")).toEqual([]);
    none(['I finished yesterday!', "We're finally launching next week!", 'I started a few days ago.']);
  });

  it('an "it" with nothing before it to stand for, in a turn that shares a picture, is the picture', () => {
    expect(
      formed(
        'Check out this photo! I put in a lot of work restoring it. [image: a photo of a red car parked in a field]',
      ),
    ).toEqual(['fact | Ann | I put in a lot of work restoring it. [image: a red car parked in a field]']);
    // People or a place in it, or said to the listener: not the picture.
    none([
      'Check out this photo! I tried to apologize to them. [image: a photo of a woman on a mountain]',
      'I wanted to share this with you. [image: a photo of two notebooks]',
    ]);
  });

  it('what a statement shows or points at with "this …" is the picture shared in the turn: it keeps the caption', () => {
    expect(formed('Woohoo! I finally got myself this beauty. [image: a photography of a red sports car]')).toEqual([
      'event | Ann | I finally got myself this beauty. [image: a red sports car]',
    ]);
    expect(
      formed("Here's a pic of my latest car project. [image: a photo of people washing a car in a garage]"),
    ).toEqual(['fact | Ann | Shared a picture of my latest car project. [image: people washing a car in a garage]']);
    // A time, what is lived rather than seen, the listener's picture, or a statement that says
    // enough of its own: no caption.
    expect(formed('This week I finally bought a new car. [image: a car]')).toEqual([
      'event | Ann | This week I finally bought a new car.',
    ]);
    expect(formed("I'm a huge fan of this genre! [image: a poster of a movie]")).toEqual([
      "fact | Ann | I'm a huge fan of this genre!",
    ]);
    expect(formed('I still think about this pic you sent me a while back. [image: a sunset]')).toEqual([
      'fact | Ann | I still think about this pic you sent me a while back.',
    ]);
    expect(
      formed(
        'I just made this quilt for my daughter, it took me three months of evenings to finish it all. [image: a quilt]',
      ),
    ).toEqual([
      'event | Ann | I just made this quilt for my daughter, it took me three months of evenings to finish it all.',
    ]);
  });

  it('"this …" as the subject, "This is me …", "something like this": what the clause speaks of is the picture, however long', () => {
    expect(
      formed(
        'In the evenings I still love to curl up with good novels, and this series is one of my all-time favorites. [image: a photo of a stack of fantasy books on a desk]',
      ),
    ).toEqual([
      'preference | Ann | In the evenings I still love to curl up with good novels, and this series is one of my all-time favorites. [image: a stack of fantasy books on a desk]',
    ]);
    expect(
      formed(
        "I went to my cousin's wedding last summer. This is me on the dance floor. [image: a photo of a woman dancing]",
      ),
    ).toEqual([
      "event | Ann | I went to my cousin's wedding last summer. This is me on the dance floor. [image: a woman dancing]",
    ]);
    expect(
      formed("I'm thinking of setting up something like this for my kids soon. [image: a photo of a reading nook]"),
    ).toEqual([
      "fact | Ann | I'm thinking of setting up something like this for my kids soon. [image: a reading nook]",
    ]);
  });

  it('near-misses: "This is why …", "I feel like this", or a turn with no picture keep no caption', () => {
    expect(
      formed('This is why I keep going to my pottery class every week. [image: a photo of a vase]'),
    ).not.toContainEqual(expect.stringContaining('[image:'));
    expect(
      formed("I've never felt like this about my running before, I'm so proud of it. [image: a photo of a medal]"),
    ).not.toContainEqual(expect.stringContaining('[image:'));
    expect(
      formed('In the evenings I still love to curl up with good novels, and this series is one of my favorites.'),
    ).toEqual([
      'preference | Ann | In the evenings I still love to curl up with good novels, and this series is one of my favorites.',
    ]);
  });

  it('"this" made or done, and where the picture is from, keep the caption of the picture shared with them', () => {
    expect(formed('I made this last night! [image: a photo of a chocolate cake]')).toEqual([
      'event | Ann | I made this last night! [image: a chocolate cake]',
    ]);
    expect(formed('These are from my trip to Peru. [image: a photo of a mountain with llamas]')).toEqual([
      'event | Ann | These are from my trip to Peru. [image: a mountain with llamas]',
    ]);
    // "This" alone as the object, however much the statement it goes on with says.
    expect(
      formed('I wore my scarf to the party. I even got this as a treat. [image: a photo of a chocolate frog in a box]'),
    ).toEqual([
      'event | Ann | I wore my scarf to the party. I even got this as a treat. [image: a chocolate frog in a box]',
    ]);
    expect(formed('I revised one of my old recipes and made this! [image: a photo of a piece of cake]')).toEqual([
      'event | Ann | I revised one of my old recipes and made this! [image: a piece of cake]',
    ]);
    // No picture: what "this" is, is said elsewhere. "This is my …" names what it shows.
    none(['I made this last night!', 'These are from you, right?', 'I even got this as a treat.']);
    expect(formed('This is my new puppy. [image: a puppy]')).toEqual(['fact | Ann | This is my new puppy.']);
  });

  it('a picture of what "it" does, right after the statement that names it, is kept whole with it', () => {
    expect(
      formed(
        "Woohoo! I finally got myself this beauty. Here's a pic from yesterday when I took it for a ride. [image: a red sports car]",
      ),
    ).toEqual([
      "event | Ann | I finally got myself this beauty. Here's a pic from yesterday when I took it for a ride. [image: a red sports car]",
    ]);
    // "Check it out" names nothing.
    expect(
      formed("I got a new bike last week. Check it out, here's a pic I took at the lake. [image: a bike by a lake]"),
    ).toEqual([
      'event | Ann | I got a new bike last week.',
      "event | Ann | Check it out, here's a pic I took at the lake. [image: a bike by a lake]",
    ]);
  });

  it('showing that says nothing but what the picture shows stays in the turn', () => {
    none([
      "Here's what I did last week. [image: a painting of a cactus]",
      'Talking of memories, I want to show you this.',
    ]);
    expect(formed('I want to show you one of my snakes! They always calm me down. [image: a snake]')).toEqual([
      'fact | Ann | I want to show you one of my snakes! They always calm me down.',
    ]);
  });

  it('"Everyone" as the subject is everyone at what the sentence before names: kept whole with it; alone it forms nothing', () => {
    expect(
      formed('Last week I went to a pride parade. Everyone was so happy and it made me feel like I belonged.'),
    ).toEqual([
      'event | Ann | Last week I went to a pride parade. Everyone was so happy and it made me feel like I belonged.',
    ]);
    expect(formed('I met back up with my teammates after my trip. Everyone missed me.')).toEqual([
      'event | Ann | I met back up with my teammates after my trip. Everyone missed me.',
    ]);
    none(['Yeah, everyone got a chance to swing.', 'Everybody there was so kind to me.']);
    // Whom "everyone" means, said with it.
    expect(formed('Everyone in my family loves hiking.')).toEqual([
      'preference | Ann | Everyone in my family loves hiking.',
    ]);
  });

  it('a possessive pronoun as the subject ("Mine …") stands for the noun said before: kept whole with it; alone it forms nothing', () => {
    expect(formed('Family time is great! Mine gets together all the time too.')).toEqual([
      'fact | Ann | Family time is great! Mine gets together all the time too.',
    ]);
    none(['Mine is full of weeds.', 'Ours is a small town.']);
    // Near-misses: the question quoted says what "mine" is; "mine" inside a clause with its own subject.
    expect(formed('Mine is a family of five.', "What's your family like?")).toEqual([
      'fact | Ann | Asked "What\'s your family like?": Mine is a family of five.',
    ]);
    expect(formed('Even though mine is small, I rely on my family for strength.')).toHaveLength(1);
  });

  it('"The … was/were …" right after a statement describes part of what it named: kept whole with it', () => {
    expect(
      formed('I watched "Little Women" recently. The acting was awesome and the story was so captivating.'),
    ).toEqual([
      'event | Ann | I watched "Little Women" recently. The acting was awesome and the story was so captivating.',
    ]);
    expect(formed('My wife and I went camping in the mountains last month. The views were spectacular!')).toEqual([
      'event | Ann | My wife and I went camping in the mountains last month. The views were spectacular!',
    ]);
    // First in a turn it names its subject; what or where a thing is, is no description.
    expect(formed('The support group has made me feel accepted.')).toEqual([
      'fact | Ann | The support group has made me feel accepted.',
    ]);
    expect(
      formed("We're brainstorming ideas to help communities get job training. The goal is to empower people."),
    ).toEqual(["fact | Ann | We're brainstorming ideas to help communities get job training."]);
  });

  it('near-misses: what is started or finished said, a verb that needs no object, "it" that comes after', () => {
    expect(formed("I'm starting a new job at Google next month.")).toEqual([
      "fact | Ann | I'm starting a new job at Google next month.",
    ]);
    expect(formed('I graduated last year.')).toEqual(['event | Ann | I graduated last year.']);
    expect(formed("I'm starting to realize that self-care is really important.")).toEqual([
      "fact | Ann | I'm starting to realize that self-care is really important.",
    ]);
    expect(formed('I finished the marathon yesterday!')).toEqual(['event | Ann | I finished the marathon yesterday!']);
  });
});

describe('readTurn: "that" + noun, or "their", whose noun is said before', () => {
  it('joins the statement before that names it', () => {
    expect(
      formed(
        "I'm grateful for the connection I have with my siblings. Things can be tough sometimes, but their support means everything to me.",
      ),
    ).toEqual([
      "fact | Ann | I'm grateful for the connection I have with my siblings. Things can be tough sometimes, but their support means everything to me.",
    ]);
    expect(
      formed(
        "Working on cars really helps me relax. I've been working on that Ford Mustang I found in a junkyard - it was in bad shape.",
      ),
    ).toEqual([
      "preference | Ann | Working on cars really helps me relax. I've been working on that Ford Mustang I found in a junkyard - it was in bad shape.",
    ]);
  });

  it('with no statement of the speaker before it, a clause that says little else forms nothing', () => {
    none([
      "I've heard of that game, been meaning to try it out.",
      'Capturing that view was amazing.',
      'Things can be tough sometimes, but their support means everything to me.',
    ]);
    expect(formed("Sounds cool! I've heard of that game, been meaning to try it out.")).toEqual([]);
  });

  it('near-misses: "that" opening a clause or a relative, a time, a clause that says more, "their" of whom it names', () => {
    expect(formed('I had to find something that fits the bill.')).toEqual([
      'event | Ann | I had to find something that fits the bill.',
    ]);
    expect(formed('I realized that life is short.')).toEqual(['event | Ann | I realized that life is short.']);
    expect(formed('I went hiking with my kids that weekend.')).toEqual([
      'event | Ann | I went hiking with my kids that weekend.',
    ]);
    expect(
      formed('By the way, I had to apologize to my partner for that drunken night, it was pretty embarrassing.'),
    ).toEqual([
      'event | Ann | By the way, I had to apologize to my partner for that drunken night, it was pretty embarrassing.',
    ]);
    expect(formed('My parents are amazing and their support means everything to me.')).toHaveLength(1);
  });
});

describe('readTurn: a fragment whose referent is earlier in the same turn', () => {
  it('a gerund subject whose object is "it" or "them" joins the statement that names it; alone it forms nothing', () => {
    expect(
      formed('I adopted a rescue cat last spring. Taking care of it motivates me to keep going through tough times.'),
    ).toEqual([
      'event | Ann | I adopted a rescue cat last spring. Taking care of it motivates me to keep going through tough times.',
    ]);
    none(['Taking care of it motivates me to keep going through tough times.', 'Seeing them grow makes me so proud.']);
  });

  it('near-misses: a gerund subject that names its object, before its "it" or instead of it', () => {
    expect(formed('Taking care of my plants motivates me to keep going.')).toEqual([
      'preference | Ann | Taking care of my plants motivates me to keep going.',
    ]);
    expect(formed('Fixing my old bike and riding it every day has made me fitter.')).toEqual([
      'fact | Ann | Fixing my old bike and riding it every day has made me fitter.',
    ]);
    expect(formed('Seeing my kids grow up makes me so proud.')).toEqual([
      'fact | Ann | Seeing my kids grow up makes me so proud.',
    ]);
  });

  it('"doing this" said with how long ago ("a few years back") refers back: kept with the picture, alone it forms nothing', () => {
    expect(
      formed(
        'Yep, it is a great stress-buster. I started doing this a few years back. [image: a photo of a painting of a cactus]',
      ),
    ).toEqual(['event | Ann | I started doing this a few years back. [image: a painting of a cactus]']);
    expect(formed('I love watercolors. I started doing it a few years ago.')).toEqual([
      'preference | Ann | I love watercolors. I started doing it a few years ago.',
    ]);
    none(['I started doing this a few years back.', 'I picked it up two years ago.']);
    // Near-miss: what was started named.
    expect(formed('I started doing yoga a few years back.')).toEqual([
      'event | Ann | I started doing yoga a few years back.',
    ]);
  });

  it('"those" + noun after remembering or missing is what the statement before told: kept whole with it', () => {
    expect(
      formed(
        "A few years back my friends and I went on a hike and found a lake in the mountains. I'll never forget those moments.",
      ),
    ).toEqual([
      "event | Ann | A few years back my friends and I went on a hike and found a lake in the mountains. I'll never forget those moments.",
    ]);
    none(["I'll never forget those moments.", 'I really miss those hikes.']);
    // Near-misses: "those" that names its kind, or a memory that names what it was.
    expect(formed("I'll never forget those summer hikes with my dad in Colorado.")).toHaveLength(1);
    expect(formed('I try to capture those special moments with my camera.')).toHaveLength(1);
  });
  it('"This one …" after the speaker\'s statement, in a turn that shares a picture, is the picture: the caption is kept', () => {
    expect(
      formed('Yep! I took a bunch of photos. This one of my favorites. [image: a photo of two horses in a field]'),
    ).toEqual(['event | Ann | I took a bunch of photos. This one of my favorites. [image: two horses in a field]']);
    // Near-misses: no picture shared, or no "this one".
    expect(formed('I took a bunch of photos. This one of my favorites.')).toEqual([
      'event | Ann | I took a bunch of photos. This one of my favorites.',
    ]);
    expect(formed('I took a bunch of photos. It was one of my favorite days. [image: a photo of two horses]')).toEqual([
      'event | Ann | I took a bunch of photos. It was one of my favorite days.',
    ]);
  });
});

describe("readTurn: a fragment whose referent is in the other speaker's remark before it", () => {
  const yoga = 'I started yoga last month.';

  it('a subject or object that points back, first in the reply, forms a memory with the remark quoted', () => {
    expect(formed('It helped me a lot with my back pain too.', yoga)).toEqual([
      `fact | Ann | Replying to Bob's "${yoga}": It helped me a lot with my back pain too.`,
    ]);
    expect(formed('I tried it last year and it helped me a lot.', yoga)).toEqual([
      `event | Ann | Replying to Bob's "${yoga}": I tried it last year and it helped me a lot.`,
    ]);
    expect(formed('Yes, I went there in 2019 with my sister.', 'I just got back from Lisbon. Have you been?')).toEqual([
      `event | Ann | Replying to Bob's "I just got back from Lisbon.": Yes, I went there in 2019 with my sister.`,
    ]);
    // Without the remark, the same clause forms nothing.
    none(['It helped me a lot with my back pain too.', 'I tried it last year and it helped me a lot.']);
  });

  it('"that" or "those" + noun, or "it" / "them" right after the speaker\'s verb, is what the remark named', () => {
    expect(formed('That book changed my life.', "I've been reading Dune lately.")).toEqual([
      `fact | Ann | Replying to Bob's "I've been reading Dune lately.": That book changed my life.`,
    ]);
    expect(formed('I read it twice in college.', "I've been reading Dune lately.")).toEqual([
      `event | Ann | Replying to Bob's "I've been reading Dune lately.": I read it twice in college.`,
    ]);
    // Not "it" standing for what follows it.
    expect(formed('I find it hard to read in the evenings.', "I've been reading Dune lately.")).not.toContainEqual(
      expect.stringContaining('Replying to'),
    );
  });

  it('thanks or a reaction in front of the reply is passed over; a reply that says what it is about is read alone', () => {
    expect(formed("Wow, that's great! I tried it last year.", yoga)).toEqual([
      `event | Ann | Replying to Bob's "${yoga}": I tried it last year.`,
    ]);
    expect(formed('I went to the gym yesterday.', yoga)).toEqual(['event | Ann | I went to the gym yesterday.']);
  });

  it('a remark about the world, the listener, or a promise, stays in the turn even with the remark quoted', () => {
    for (const text of [
      "It's moments like these that give me hope too.",
      'It really helps you focus.',
      "I'll make sure to remember this when I need it.",
      "It's important to look after yourself.",
      "It's like a reboot for me.",
    ])
      expect(formed(text, yoga), text).toEqual([]);
    // "It … me", telling what the thing did to the speaker, stands with it (REFERENT_DID_RE).
    expect(formed('It helped me sleep much better at night.', yoga)).toEqual([
      `fact | Ann | Replying to Bob's "${yoga}": It helped me sleep much better at night.`,
    ]);
  });

  it('the remark is the last sentence of the other turn that names something: not a question, a reaction or "It …"', () => {
    expect(
      formed('I tried it last year.', "I started yoga last month. It's so relaxing! That's awesome. How about you?"),
    ).toEqual([`event | Ann | Replying to Bob's "I started yoga last month.": I tried it last year.`]);
    // A turn that names nothing: no remark, and the fragment forms nothing.
    expect(formed('I tried it last year.', "That's awesome! So cool.")).toEqual([]);
    expect(formed('I tried it last year.', "I'd love to learn how you do it.")).toEqual([]);
  });

  it("no remark of the speaker's own turn, of an assistant, nor in a turn that shares a picture", () => {
    const read = (input: string, before: string) =>
      readTurn({ input, userId: 'u', createdAt: NOON }, { previous: { input: before } }).statements.filter(
        (s) => s.kind !== 'conversation',
      );
    expect(read('Ann: I tried it last year.', `Ann: ${yoga}`)).toEqual([]);
    expect(read('I tried it last year.', yoga)).toEqual([]);
    expect(formed('I painted it last week. [image: a photo of a lighthouse painting]', yoga)).toEqual([
      'event | Ann | I painted it last week. [image: a lighthouse painting]',
    ]);
  });
});

describe('remarkMade', () => {
  it('gives the last sentence that names something, none when the turn only reacts or asks', () => {
    expect(remarkMade("I adopted a puppy. He's so cute! Any pets?", 'Bob', 'Ann', NOON)).toBe('I adopted a puppy.');
    expect(remarkMade("Wow, that's awesome! Congrats!", 'Bob', 'Ann', NOON)).toBeUndefined();
    expect(remarkMade('Did you go? [image: a photo of a beach]', 'Bob', 'Ann', NOON)).toBeUndefined();
  });
});

describe('readTurn: a reply to what the other speaker showed', () => {
  it('the picture shared with the remark is quoted with it; a picture alone is the remark', () => {
    expect(
      formed(
        'That sign reminds me to never give up on my business.',
        'Keep working hard, Ann! [image: a photo of a sign that says never give up]',
      ),
    ).toEqual([
      "fact | Ann | Replying to Bob's [image: a sign that says never give up]: That sign reminds me to never give up on my business.",
    ]);
    expect(
      formed('I tried it last year.', 'I started yoga last month. [image: a photo of a woman on a yoga mat]'),
    ).toEqual([
      `event | Ann | Replying to Bob's "I started yoga last month." [image: a woman on a yoga mat]: I tried it last year.`,
    ]);
  });

  it('a wish is no remark ("Let\'s work together on it")', () => {
    expect(formed('I tried it last year.', "Let's work together on the garden this weekend.")).toEqual([]);
  });
});

describe("readTurn: a fragment after a turn of the other speaker's that names nothing", () => {
  it('a short clause that points back forms nothing; one that says more stands', () => {
    expect(formed('I went there in 2019 with my sister.', "That's awesome! So cool.")).toEqual([]);
    expect(formed('I read it twice in college.', "That's awesome! So cool.")).toEqual([]);
    // Without a turn before, it is read as it always was.
    expect(formed('I went there in 2019 with my sister.')).toEqual([
      'event | Ann | I went there in 2019 with my sister.',
    ]);
    expect(
      formed(
        "That picture was from a trip we took last year for my daughter Sara's birthday - so much fun!",
        'That picture is awesome! Your family looks so stoked.',
      ),
    ).toEqual([
      "event | Ann | That picture was from a trip we took last year for my daughter Sara's birthday - so much fun!",
    ]);
  });

  it('a remark that says "it" names something when it says enough besides', () => {
    expect(
      formed('It helped me a lot with my back pain too.', "I started yoga last month, it's great for my back."),
    ).toEqual([
      `fact | Ann | Replying to Bob's "I started yoga last month, it's great for my back.": It helped me a lot with my back pain too.`,
    ]);
    expect(remarkMade("I'd love to learn how you do it.", 'Bob', 'Ann', NOON)).toBeUndefined();
  });

  it('a reply that likens stays in the turn, wherever it says "it\'s like"', () => {
    expect(
      formed("It's about showing my style, it's like customizing a work of art on wheels.", 'I love customizing cars.'),
    ).toEqual([]);
  });
});

describe('readTurn: what a clause points back at, said earlier in the same turn, is kept whole with it', () => {
  it('"this …" after the speaker\'s statement, with no picture in the turn, is what that statement named', () => {
    expect(
      formed(
        '"Brave" by Sara Bareilles has a lot of significance for me. Whenever I hear this jam, I think about the progress I\'ve made.',
      ),
    ).toEqual([
      'fact | Ann | "Brave" by Sara Bareilles has a lot of significance for me. Whenever I hear this jam, I think about the progress I\'ve made.',
    ]);
    // First in the turn, "this …" is said as new: read as any other statement.
    expect(formed("I'm reading this book about the history of Lisbon.")).toEqual([
      "fact | Ann | I'm reading this book about the history of Lisbon.",
    ]);
    // After catching up, "this …" names something new.
    expect(
      formed('Things have been going well since we last talked. I attended this awesome car show recently.'),
    ).toEqual(['event | Ann | I attended this awesome car show recently.']);
    // A picture in the turn is what "this …" shows.
    expect(
      formed('I adopted a puppy last month. I knitted this blanket myself. [image: a photo of a red blanket]'),
    ).toHaveLength(2);
  });

  it('an activity with "it", "them" or "that" as its subject goes on with the statement before it', () => {
    expect(
      formed(
        'I usually immerse myself in concerts or my favorite albums. Doing that usually helps to jumpstart my inspiration.',
      ),
    ).toEqual([
      'preference | Ann | I usually immerse myself in concerts or my favorite albums. Doing that usually helps to jumpstart my inspiration.',
    ]);
    expect(
      formed(
        'Woodhaven has had an interesting past with lots of cool people. Seeing how much it changed sparked ideas for my next script.',
      ),
    ).toEqual([
      'fact | Ann | Woodhaven has had an interesting past with lots of cool people. Seeing how much it changed sparked ideas for my next script.',
    ]);
    // Without a verb it is the subject of, the activity is the speaker's own doing.
    expect(formed('Cheers for the suggestion. Adding it to my list.')).toEqual([]);
    // "that" opening a clause, or naming its noun, refers to nothing before.
    expect(formed('Knowing that I helped my neighbours through the winter makes me proud.')).toHaveLength(1);
  });

  it('"I missed it but …" refers back; through a remark in between, to the statement that names it', () => {
    expect(
      formed(
        'Last weekend our city held a pride parade! So many people marched through the streets waving flags. I missed it but it was a powerful reminder that we are not alone.',
      ),
    ).toEqual([
      'event | Ann | Last weekend our city held a pride parade! Many people marched through the streets waving flags. I missed it but it was a powerful reminder that we are not alone.',
    ]);
  });

  it('"A friend made it …": a person of the speaker\'s doing something to "it" goes on with the statement naming it', () => {
    expect(
      formed(
        "I've got some stuff with sentimental value, like my hand-painted bowl. A friend made it for my 18th birthday.",
      ),
    ).toEqual([
      "fact | Ann | I've got some stuff with sentimental value, like my hand-painted bowl. A friend made it for my 18th birthday.",
    ]);
    none(['A friend made it for my 18th birthday.']);
  });

  it("an activity judged as a whole right after the speaker's statement judges what it told", () => {
    expect(
      formed("We celebrated my daughter's birthday with a concert. Seeing my kids' smiles was so awesome!"),
    ).toEqual([
      "event | Ann | We celebrated my daughter's birthday with a concert. Seeing my kids' smiles was so awesome!",
    ]);
    // Saying more than the judgement, it stands alone.
    expect(
      formed(
        "We celebrated my daughter's birthday with a concert. Painting with my kids is so fun and relaxing for all of us on Sundays.",
      ),
    ).toHaveLength(2);
  });

  it("the speaker's own question that names something is what a clause after it points back at", () => {
    expect(formed('Remember the tough engineering project? I finally wrapped that up last month.')).toEqual([
      'event | Ann | Remember the tough engineering project? I finally wrapped that up last month.',
    ]);
    // A question about the listener's own, or one that names too little, names nothing of the speaker's.
    none([
      'How was your trip to the coast? I finally wrapped that up last month.',
      'Did you see it? I finally wrapped that up last month.',
    ]);
  });
});

describe('sentences: initials end no sentence', () => {
  it('"J.K. Rowling" and "George R. R. Martin" stay inside their sentence', () => {
    expect(
      formed("There's a quote by J.K. Rowling that I really like. I read it every morning before work."),
    ).not.toContain(expect.stringMatching(/^\w+ \| Ann \| Rowling/u));
    expect(sentences('I love the books by George R. R. Martin. They are long.')).toEqual([
      'I love the books by George R. R. Martin.',
      'They are long.',
    ]);
    expect(sentences('I moved to the U.S. Then I found a job.')).toHaveLength(1);
  });
});

describe('clauseParts: a result after "so" stays with the clause whose pronoun it goes on with', () => {
  it('"I noticed they weren\'t acting normally, so I made an appointment" is one statement', () => {
    expect(formed("I noticed they weren't acting normally, so I made an appointment with the vet.")).toEqual([
      "event | Ann | I noticed they weren't acting normally, so I made an appointment with the vet.",
    ]);
    // Without a pronoun, the two clauses say two things.
    expect(formed('I love hiking, so I moved to Porto last year.')).toHaveLength(2);
  });
});

describe('questionAsked: a short remark after the question leaves the question the one to answer', () => {
  it('"Have you ever tried skiing before? It looks like loads of fun!" is answered by "Haven\'t tried it before …"', () => {
    expect(
      formed(
        "Haven't tried it before, but it does look like a lot of fun!",
        'Looks awesome! Have you ever tried skiing before? It looks like loads of fun!',
      ),
    ).toEqual([
      `event | Ann | Asked "Have you ever tried skiing before?": Haven't tried it before, but it does look like a lot of fun!`,
    ]);
    // A statement of the other speaker's own after the question is what is replied to, unless the
    // reply says yes or no first: the question is marked as one with a remark after it.
    expect(questionAsked('Have you ever tried skiing? I went to the Alps last winter with my brother.')).toMatchObject({
      text: 'Have you ever tried skiing?',
      remarkAfter: true,
    });
    expect(
      questionAsked('What did you think of skiing? I went to the Alps last winter with my brother.'),
    ).toBeUndefined();
  });
});

describe('readTurn: what the speaker told, judged or pointed at after it', () => {
  it('"Can\'t imagine my life without it" (no "I") joins the clause that names "it"; alone it forms nothing', () => {
    expect(formed("Basketball is really important to me. Can't imagine my life without it, it's my passion.")).toEqual([
      "fact | Ann | Basketball is really important to me. Can't imagine my life without it, it's my passion.",
    ]);
    none(["Can't imagine my life without it.", "Couldn't have done it without them."]);
  });

  it('"It was …" judged right after the speaker\'s own statement goes on with it, and so does a "them" after it', () => {
    expect(
      formed(
        'I read this awesome book about castles in the UK. It was so interesting and blew me away! I dream of visiting them one day.',
        'How have you been?',
      ),
    ).toEqual([
      'event | Ann | I read this awesome book about castles in the UK. It was so interesting and blew me away! I dream of visiting them one day.',
    ]);
    // A reaction to what the listener said stays out of what the speaker told.
    expect(formed('It was so interesting to hear that! I read a book about castles.', 'I visited a castle.')).toEqual([
      'event | Ann | I read a book about castles.',
    ]);
    none(['I dream of visiting them one day.']);
  });

  it('"… but wanted to let you know I …" starts the speaker\'s news after catching up', () => {
    expect(
      formed(
        "Haven't talked to you in a bit but wanted to let you know I read this awesome book about castles in the UK.",
      ),
    ).toEqual(['event | Ann | I read this awesome book about castles in the UK.']);
  });
});

describe('clauses: what was going on, and the last item of a list, stay with their sentence', () => {
  it('"I was playing video games and my pet slinked out" is one event', () => {
    expect(
      formed('I was playing video games and my pet just slinked out of her cage and coiled up next to me.'),
    ).toEqual([
      'event | Ann | I was playing video games and my pet just slinked out of her cage and coiled up next to me.',
    ]);
  });

  it('", and I even got …" after a list ends the list', () => {
    expect(
      formed("I've been gathering information, watching videos, and I even got a beginners' guide to surfing."),
    ).toEqual([
      "event | Ann | I've been gathering information, watching videos, and I even got a beginners' guide to surfing.",
    ]);
  });

  it('near-misses: a clause that is no background, and no list, still splits', () => {
    expect(formed('I played video games and my sister baked a cake.')).toEqual([
      'event | Ann | I played video games',
      "event | Ann's sister | My sister baked a cake.",
    ]);
  });
});

describe('readTurn: a clause whose "I" is left out goes on with the statement before it', () => {
  it('"Been practicing every day." joins the speaker\'s statement before it, of its kind', () => {
    expect(formed('I started learning the guitar last month. Been practicing every day.')).toEqual([
      'event | Ann | I started learning the guitar last month. Been practicing every day.',
    ]);
    expect(formed('I love Lisbon. Went there last week and loved it.')).toEqual([
      'preference | Ann | I love Lisbon. Went there last week and loved it.',
    ]);
  });

  it('dated, it still goes on when it says nothing but when', () => {
    expect(formed('I love my new job. Started last Monday.')).toEqual([
      'preference | Ann | I love my new job. Started last Monday.',
    ]);
  });

  it('after a remark, only when the remark names its thing first', () => {
    expect(formed('The lake by my house is stunning. Went there last week and loved it.')).toEqual([
      'fact | Ann | The lake by my house is stunning. Went there last week and loved it.',
    ]);
    expect(formed("It's been hectic. Been working on my thesis every night.")).toEqual([
      'fact | Ann | Been working on my thesis every night.',
    ]);
  });

  it('near-misses: news of its own, after a reaction, dated on its own, or a slot, stays apart', () => {
    expect(formed('I started learning the guitar last month. Got some great news - my band got a gig!')).toEqual([
      'event | Ann | I started learning the guitar last month.',
      'event | Ann | My band got a gig!',
    ]);
    expect(formed("Wow, that's amazing! Been practicing every day.")).toEqual([
      'fact | Ann | Been practicing every day.',
    ]);
    expect(formed('I moved to Porto in May. Yesterday went to the beach with my kids.')).toEqual([
      'fact | Ann | I moved to Porto in May.',
      'event | Ann | Yesterday went to the beach with my kids.',
    ]);
    expect(formed("I'm still working on my shop. Took a short trip to Rome last week.")).toEqual([
      "fact | Ann | I'm still working on my shop.",
      'event | Ann | Took a short trip to Rome last week.',
    ]);
    expect(formed('I went to a festival with my partner last year. Just got back from a trip to Spain.')).toEqual([
      'event | Ann | I went to a festival with my partner last year.',
      'event | Ann | Just got back from a trip to Spain.',
    ]);
    expect(
      statementsOf('I quit my job at the bank. Moved to Lisbon with my sister.').map((s) => [s.text, s.attribute]),
    ).toEqual([
      ['I quit my job at the bank.', undefined],
      ['Moved to Lisbon with my sister.', 'lives in'],
    ]);
  });
});

describe('readTurn: a judgement with its "it is" left out is of the statement before it', () => {
  it('"Definitely what I deserve …" joins the statement before; alone it forms nothing', () => {
    expect(formed('I finally bought a new car! Definitely what I deserve after all this hard work.')).toEqual([
      'event | Ann | I finally bought a new car! Definitely what I deserve after all this hard work.',
    ]);
    none([
      'Definitely what I deserve after all this hard work.',
      'Exactly what I needed after a long week.',
      'Totally worth every penny.',
    ]);
  });

  it('near-miss: "what I …" as the subject of a verb names what it is about', () => {
    expect(formed('What I love most about my job is the people.')).toEqual([
      'fact | Ann | What I love most about my job is the people.',
    ]);
  });
});

describe('readTurn: what something is taken "as" is said of it, not named by it', () => {
  it('"I treat it as …" joins the clause that names "it"; alone it forms nothing', () => {
    expect(formed('I bought a vintage guitar last year. I treat it as an investment in my music.')).toEqual([
      'event | Ann | I bought a vintage guitar last year. I treat it as an investment in my music.',
    ]);
    none(['I got it as a gift from a close friend.', 'I see it as a chance to grow.']);
  });

  it('near-miss: "as" after a named object', () => {
    expect(formed('I got this guitar as a gift from a close friend.')).toEqual([
      'event | Ann | I got this guitar as a gift from a close friend.',
    ]);
  });
});

describe('readTurn: catching up "since we last talked" goes on with nothing before it', () => {
  it('"It\'s been a tough time for me since we last caught up" is not kept with the statement before', () => {
    expect(
      statementsOf(
        "I got a new bike from my uncle. It's been a tough time for me since we last caught up; I lost my job last month.",
      ).map((s) => s.text),
    ).toEqual([
      'I got a new bike from my uncle.',
      "It's been a tough time for me since we last caught up",
      'I lost my job last month.',
    ]);
  });

  it('near-miss: "it" that does not catch up still goes on with it', () => {
    expect(formed('I got a new bike from my uncle. It was a total surprise.')).toEqual([
      'event | Ann | I got a new bike from my uncle. It was a total surprise.',
    ]);
  });
});

describe('readTurn: a name the speaker exclaimed or asked alone is what their "it" after it stands for', () => {
  it('"Paris?! … Never had a chance to visit it.": the name is said in front of it, a reaction between aside', () => {
    expect(formed('Paris?! That is really great Jon! Never had a chance to visit it.')).toEqual([
      'event | Ann | About Paris: Never had a chance to visit it.',
    ]);
    expect(formed('The Louvre?! I visited it last summer.')).toEqual([
      'event | Ann | About the Louvre: I visited it last summer.',
    ]);
  });

  it('near-misses: an interjection or praise is no name, and one name is no "they"', () => {
    none([
      'Wow! Never had a chance to visit it.',
      'Agreed! It is a great way to escape the everyday.',
      'Max! They bring lots of joy to our home.',
      'Never had a chance to visit it.',
    ]);
  });
});

describe('readTurn: a remark that names its thing, before a "there" or "it"', () => {
  it('"Athens was amazing! We went there in May." keeps the remark that says where', () => {
    expect(formed('Athens was amazing! We went there in May.')).toEqual([
      'event | Ann | Athens was amazing! We went there in May.',
    ]);
    expect(formed('The old bakery was lovely, and we went there every Sunday.')).toEqual([
      'event | Ann | The old bakery was lovely, and we went there every Sunday.',
    ]);
  });

  it('near-misses: a remark that names nothing, or a clause that says its own place', () => {
    expect(formed('Wow, amazing! We went there in May.')).toEqual(['event | Ann | We went there in May.']);
    expect(formed('Athens was amazing! We flew to Crete in May.')).toEqual(['event | Ann | We flew to Crete in May.']);
  });
});
