import { describe, expect, it } from 'vitest';
import { expandShorthand, repunctuate, restoreApostrophes, typedWithoutStops } from './chat-text.js';
import { formed } from './formed.fixture.js';

/** Typed chat (issue 28): what people leave out when they type, put back before a turn is read. */

describe('restoreApostrophes', () => {
  it('puts back the apostrophe of a contraction typed without one, in the case it was typed', () => {
    expect(restoreApostrophes('im so tired i cant sleep')).toBe("I'm so tired I can't sleep");
    expect(restoreApostrophes('Dont wait up, youre late')).toBe("Don't wait up, you're late");
    expect(restoreApostrophes('THATS HUGE')).toBe("THAT'S HUGE");
    expect(restoreApostrophes('whats up, hows the new job')).toBe("what's up, how's the new job");
  });

  it('"its", "lets", "ill" and "id" only where the next word makes them a contraction', () => {
    expect(restoreApostrophes('its been a while')).toBe("it's been a while");
    expect(restoreApostrophes('the dog wagged its tail')).toBe('the dog wagged its tail');
    expect(restoreApostrophes('lets grab coffee')).toBe("let's grab coffee");
    expect(restoreApostrophes('she lets me borrow her car')).toBe('she lets me borrow her car');
    expect(restoreApostrophes('ill be there at six')).toBe("I'll be there at six");
    expect(restoreApostrophes('I was ill all week')).toBe('I was ill all week');
    expect(restoreApostrophes('id love to come')).toBe("I'd love to come");
    expect(restoreApostrophes('I lost my id card')).toBe('I lost my id card');
  });

  it('words that are words of their own stay as typed', () => {
    for (const s of ['we were there', 'all is well', 'what the hell', 'they wed in June', 'the shed is full'])
      expect(restoreApostrophes(s)).toBe(s);
  });

  it('a lone "i" becomes "I"; "i.e." and a list\'s "i)" do not', () => {
    expect(restoreApostrophes("i think i'm ready, i've packed")).toBe("I think I'm ready, I've packed");
    expect(restoreApostrophes('two options, i.e. this one')).toBe('two options, i.e. this one');
    expect(restoreApostrophes('i) flour ii) sugar')).toBe('i) flour ii) sugar');
    expect(restoreApostrophes('a wi-fi code')).toBe('a wi-fi code');
  });
});

describe('readTurn: a turn typed without apostrophes forms what the punctuated one does', () => {
  it.each([
    ['im allergic to peanuts.', "I'm allergic to peanuts."],
    ['ive been learning the violin since march.', "I've been learning the violin since march."],
    ['i dont eat meat anymore.', "I don't eat meat anymore."],
    ['my sister just moved to Lisbon, shes a nurse there.', "my sister just moved to Lisbon, she's a nurse there."],
  ])('%s', (typed, punctuated) => {
    const got = formed(typed);
    expect(got).not.toEqual([]);
    expect(got).toEqual(formed(punctuated));
  });
});

/** The sentences of a turn typed as `text` (apostrophes put back first, as `sentences` does). */
const split = (text: string) => repunctuate(restoreApostrophes(text), { stopless: typedWithoutStops(text) });

describe('repunctuate: a turn typed without full stops', () => {
  it('a sentence starts at a capitalised opener and at an "I" that does not go on', () => {
    expect(split('Thanks Ben Your advice helped a lot I finally fixed the bike We rode it to the lake')).toEqual([
      'Thanks Ben.',
      'Your advice helped a lot.',
      'I finally fixed the bike.',
      'We rode it to the lake',
    ]);
    expect(split('ill be there by the way, yesterday i went bowling')).toEqual([
      "I'll be there.",
      'by the way, yesterday I went bowling',
    ]);
    expect(split("where'd you go, by the way?")).toEqual(["where'd you go, by the way?"]);
    expect(split('the hike was long oh and we saw a deer')).toEqual(['the hike was long.', 'oh and we saw a deer']);
    expect(split('i aced the exam yesterday im so relieved')).toEqual([
      'I aced the exam yesterday.',
      "I'm so relieved",
    ]);
    expect(split('that was hilarious haha we should do it again')).toEqual([
      'that was hilarious haha.',
      'we should do it again',
    ]);
  });

  it('a question keeps (or gets) its mark; the last statement is left as typed', () => {
    expect(split("hows it going it's been ages")).toEqual(["how's it going?", "it's been ages"]);
    expect(split('Great news Any plans for the weekend')).toEqual(['Great news.', 'Any plans for the weekend?']);
    expect(split('Nice pic What made you pick that spot?')).toEqual(['Nice pic.', 'What made you pick that spot?']);
    expect(split('what a day')).toEqual(['what a day']);
    expect(split('When I was a kid I lived in Porto')).toEqual(['When I was a kid I lived in Porto']);
  });

  it('a capitalised "-ing" verb or opener starts one even after a noun with its article', () => {
    expect(split('Thanks Sam Letting go of that job was the best call')).toEqual([
      'Thanks Sam.',
      'Letting go of that job was the best call',
    ]);
    expect(split("Rome has it all - food, art and an amazing history It's like a museum")).toEqual([
      'Rome has it all - food, art and an amazing history.',
      "It's like a museum",
    ]);
    // A place or a name ending in "-ing" before a capitalised word is no verb.
    expect(split('We flew to Beijing last spring')).toHaveLength(1);
  });

  it('after a greeting and a name, or a name after a comma, a sentence starts', () => {
    expect(split('Thanks, Lena Appreciate the help It was a long week')).toEqual([
      'Thanks, Lena.',
      'Appreciate the help.',
      'It was a long week',
    ]);
    expect(split("Thanks for the tips, Omar I'll try the bakery first")).toEqual([
      'Thanks for the tips, Omar.',
      "I'll try the bakery first",
    ]);
    // "Last Friday" is no title: the opener before a weekday still opens.
    expect(split('Busy week Last Friday I moved house')).toEqual(['Busy week.', 'Last Friday I moved house']);
  });

  it('typed all in lower case, the question at the end of a run starts where it asks', () => {
    expect(split("that's great news i'm thinking of getting a cat too do you have any tips?")).toEqual([
      "that's great news.",
      "I'm thinking of getting a cat too.",
      'do you have any tips?',
    ]);
    // With no mark at all, only a question that cannot be anything else: a verb before "you"
    // ("how was your week", not "how hard it was for you"), from the question word before it.
    expect(split('we just got back from the coast how was your week')).toEqual([
      'we just got back from the coast.',
      'how was your week?',
    ]);
    expect(split('we got back yesterday i know how hard it was for you')).toEqual([
      'we got back yesterday.',
      'I know how hard it was for you',
    ]);
    expect(split('sounds great i think storytelling is what makes rpgs so fun what game are you playing now')).toEqual([
      'sounds great.',
      'I think storytelling is what makes rpgs so fun.',
      'what game are you playing now?',
    ]);
    // Before a picture, the question is asked apart from it.
    expect(split('busy week for me i juggle classes and my hobby how have you been [image: a stack of books]')).toEqual(
      ['busy week for me.', 'I juggle classes and my hobby.', 'how have you been?', '[image: a stack of books]'],
    );
    expect(split('we just got back from the coast did you get my postcard')).toEqual([
      'we just got back from the coast.',
      'did you get my postcard?',
    ]);
    // "any advice", "any plans for …" ask; "I don't have any plans", "picked up any …" do not.
    expect(split('we went hiking any plans for the weekend')).toEqual([
      'we went hiking.',
      'any plans for the weekend?',
    ]);
    expect(split("i don't have any plans for the weekend")).toHaveLength(1);
    expect(split("i'm open to any advice you have")).toHaveLength(1);
    expect(split('i love cooking got any favorite recipes')).toEqual(['I love cooking.', 'got any favorite recipes?']);
    expect(split("we haven't got any plans yet")).toHaveLength(1);
    // After an acknowledgement that opens the run, what follows is a sentence of its own.
    expect(split('i totally get it nature has a way of bringing us back down to earth')).toEqual([
      'I totally get it.',
      'nature has a way of bringing us back down to earth',
    ]);
    expect(split('i get it because i was there too')).toHaveLength(1);
    // "what is new" typed in full asks as "what's new" does.
    expect(split('my dog came to me today while i was playing on the console what is new')).toEqual([
      'my dog came to me today while I was playing on the console.',
      'what is new?',
    ]);
    // "it all" is an object, not a subject that opens a sentence.
    expect(split('im keen to go looking for a way to escape it all and de-stress')).toHaveLength(1);
    expect(split('they love it all')).toEqual(['they love it all']);
    // A question word, a word of degree and an auxiliary before its subject ask with no mark too.
    expect(split('you surprise me how much do these cooking courses cost')).toEqual([
      'you surprise me.',
      'how much do these cooking courses cost?',
    ]);
    expect(split('we went to the park which was great')).toHaveLength(1);
    expect(split('it went well what did you think of it')).toEqual(['it went well.', 'what did you think of it?']);
    // Two questions at the end: each is asked apart.
    expect(split('i just finished restoring it hows everything with the music any updates')).toEqual([
      'I just finished restoring it.',
      "how's everything with the music?",
      'any updates?',
    ]);
    // What is known, learnt or measured goes on ("… happy knowing I can help", "how much you can learn").
    expect(split('im inspired by her it makes me happy knowing i can brighten somebodys day')).toEqual([
      "I'm inspired by her it makes me happy knowing I can brighten somebodys day",
    ]);
    expect(split('i love fantasy books its wild how much you can learn from them')).toEqual([
      'I love fantasy books.',
      "it's wild how much you can learn from them",
    ]);
    // After a greeting after a while, what is told starts a sentence; not "it's been a while since …".
    expect(split('hey dave been ages since we chatted so much has happened we toured japan')).toEqual([
      'hey dave been ages since we chatted.',
      'so much has happened we toured japan',
    ]);
    expect(split('hey omar, its been a minute i finished my second script')).toEqual([
      "hey omar, it's been a minute.",
      'I finished my second script',
    ]);
    expect(split('Good to catch up again Had a rough week with the car')).toEqual([
      'Good to catch up again.',
      'Had a rough week with the car',
    ]);
    expect(split('hey omar, been a few days, so i wanted to say hi')).toEqual([
      'hey omar, been a few days.',
      'so I wanted to say hi',
    ]);
    expect(split("it's been a while, but im good")).toEqual(["it's been a while, but I'm good"]);
    // A catching-up clause further in the run: the news after it opens a sentence.
    expect(split('sorry it took me so long crazy times since we talked my album finally dropped')).toEqual([
      'sorry it took me so long crazy times since we talked.',
      'my album finally dropped',
    ]);
    expect(split("a lot's happened since then got a new job")).toEqual([
      "a lot's happened since then.",
      'got a new job',
    ]);
    expect(split('things have been great since we last talked')).toHaveLength(1);
    expect(split('a lot has changed since last time we talked')).toHaveLength(1);
    expect(split('we had a wild week since we talked i met my new team')).toEqual([
      'we had a wild week since we talked.',
      'I met my new team',
    ]);
    // A time right after it, and a subject: the time is the news's ("since we talked | last fri I …").
    expect(split('so much since we talked last fri i finally took my kids to a pottery workshop')).toEqual([
      'so much since we talked.',
      'last fri I finally took my kids to a pottery workshop',
    ]);
    expect(split('nothing new since we talked last week')).toHaveLength(1);
    // An "-ing" subject of a few more words before its verb.
    expect(split('so much has gone down touring with frank ocean last week was wild')).toEqual([
      'so much has gone down.',
      'touring with frank ocean last week was wild',
    ]);
    expect(split('hey omar, havent talked for a few days had a wild week')).toEqual([
      "hey omar, haven't talked for a few days.",
      'had a wild week',
    ]);
    expect(split("it's been a while since i played guitar")).toEqual(["it's been a while since I played guitar"]);
    expect(split("life's been a bit rough lately but im fine")).toEqual([
      "life's been a bit rough lately but I'm fine",
    ]);
    expect(split('we should talk again soon')).toEqual(['we should talk again soon']);
    // "does he …" asks wherever it stands; "so does he" goes on.
    expect(split('wow, rex loves playing fetch does he also enjoy long walks')).toEqual([
      'wow, rex loves playing fetch.',
      'does he also enjoy long walks?',
    ]);
    expect(split('i went there last week, so did she')).toEqual(['I went there last week, so did she']);
    // Set off by a comma, the question at the end gets its mark (and is read apart from the remark).
    expect(split('love the tattoo, did you just get it')).toEqual(['love the tattoo, did you just get it?']);
    // "what's been …", "what's new": a question wherever it opens, but after a word that takes it.
    expect(split('we went to the beach whats new with you')).toEqual(['we went to the beach.', "what's new with you?"]);
    expect(split('i know whats been bothering you')).toEqual(["I know what's been bothering you"]);
    expect(split('i love dancing you ever tried salsa')).toEqual(['I love dancing.', 'you ever tried salsa?']);
    expect(split('i wonder if you ever think of me')).toHaveLength(1);
    // After a subordinate clause ("after we talked"), the "I" of the main clause goes on.
    expect(split('i was busy, but after we talked i finally picked up a book')).toEqual([
      'I was busy, but after we talked I finally picked up a book',
    ]);
    // "I wonder what you think": what is wondered goes on.
    expect(split('i wonder do you still paint?')).toEqual(['I wonder do you still paint?']);
  });

  it('a time phrase or an adverb that opens a clause after "but", "and", "so" goes on with it', () => {
    expect(split("hey omar, ive been swamped at work, but last week i finally moved house it's so quiet here")).toEqual(
      ["hey omar, I've been swamped at work, but last week I finally moved house.", "it's so quiet here"],
    );
    expect(split('so the other day we went to the zoo')).toEqual(['so the other day we went to the zoo']);
    expect(split('i forgot her birthday so i called and luckily she laughed it off')).toEqual([
      'I forgot her birthday so I called and luckily she laughed it off',
    ]);
    // After what the time phrase ends, a clause of its own still starts.
    expect(split('we went bowling last weekend it was a blast')).toEqual([
      'we went bowling last weekend.',
      'it was a blast',
    ]);
    expect(split('i passed my driving test two weeks ago im so relieved')).toEqual([
      'I passed my driving test two weeks ago.',
      "I'm so relieved",
    ]);
  });

  it('what is found ("turns out"), "however I can" and "can you\'re" go on', () => {
    expect(split('i tried the local chess tournament and turns out im really good')).toEqual([
      "I tried the local chess tournament and turns out I'm really good",
    ]);
    expect(split("i'll help out however i can")).toEqual(["I'll help out however I can"]);
    expect(split("i'll help however i can you're doing great")).not.toContainEqual(expect.stringMatching(/\?$/u));
  });

  it('a clause that ends the run on a verb with its object left out is a relative clause', () => {
    expect(split('let me show you some new herbal teas ive been trying [image: three mugs]')).toEqual([
      "let me show you some new herbal teas I've been trying [image: three mugs]",
    ]);
    expect(split('that pasta was the best thing we made')).toHaveLength(1);
    // Its object left out before "it" and a verb, the clause after it is the next one's, not this one's start.
    expect(split('researching visa requirements for countries i want to visit it feels like a step')).toEqual([
      'researching visa requirements for countries I want to visit it feels like a step',
    ]);
    // An object after the verb: a clause of its own.
    expect(split('we finally tried sushi i loved it')).toEqual(['we finally tried sushi.', 'I loved it']);
  });

  it('"by the way" and "speaking of which" open a sentence after any word but one that joins it', () => {
    expect(split("i will by the way, here's my garden come see it")).toEqual([
      'I will.',
      "by the way, here's my garden come see it",
    ]);
    expect(split('a good coach is always a help speaking of which, mine just quit')).toEqual([
      'a good coach is always a help.',
      'speaking of which, mine just quit',
    ]);
    expect(split('and by the way, i got the job')).toEqual(['and by the way, I got the job']);
    expect(split('ill do that btw, recently i had a setback')).toEqual([
      "I'll do that.",
      'btw, recently I had a setback',
    ]);
    expect(split("where'd you go by the way")).toHaveLength(1);
  });

  it('a capitalised opener after a word a relative clause could follow still opens', () => {
    expect(split('I just like helping people Do you have plans for the weekend?')).toEqual([
      'I just like helping people.',
      'Do you have plans for the weekend?',
    ]);
    expect(split('there are some people I know from school')).toHaveLength(1);
  });

  it('with no full stop anywhere, a subject pronoun before its verb opens a sentence', () => {
    expect(split('we went swimming at Silver Lake it was so calming')).toEqual([
      'we went swimming at Silver Lake.',
      'it was so calming',
    ]);
    expect(split('that was the lake we saw last summer')).toHaveLength(1);
    expect(split('I think it was closed')).toHaveLength(1);
  });

  it('"it\'s", or "it" before "was", "helps", "means" …, opens a sentence even after a noun with its article', () => {
    expect(split('we finally painted the kitchen it looks so much brighter')).toEqual([
      'we finally painted the kitchen.',
      'it looks so much brighter',
    ]);
    expect(split('thanks for the recipe its a keeper')).toEqual(['thanks for the recipe.', "it's a keeper"]);
    expect(split('i signed up for a pottery class it was harder than i thought')).toEqual([
      'I signed up for a pottery class.',
      'it was harder than I thought',
    ]);
    // A relative clause ("the difference it made", "the effect it's having"), an object ("for it",
    // "fixing it") goes on.
    for (const text of [
      'i love the difference it made in my mornings',
      'i can see the effect its having on my sleep',
      'thanks so much i was waiting for it is that weird',
      'he spent the weekend fixing it was worth the trouble',
    ])
      expect(
        split(text).filter((s) => /^it\b/iu.test(s)),
        text,
      ).toEqual([]);
  });

  it('"my X", "the kids", "your support" opens a sentence when a verb follows it', () => {
    expect(split('we drove out to the lake my dad was thrilled')).toEqual([
      'we drove out to the lake.',
      'my dad was thrilled',
    ]);
    expect(split('thanks a lot your advice really helped')).toEqual(['thanks a lot.', 'your advice really helped']);
    expect(split('hi my name is Jeremy')).toEqual(['hi my name is Jeremy']);
    expect(split('we baked cookies all afternoon the twins loved it')).toEqual([
      'we baked cookies all afternoon.',
      'the twins loved it',
    ]);
    // After a noun with its article, only where no relative clause can be meant ("the cake the twins loved").
    expect(split('we baked a cake the twins were thrilled')).toEqual(['we baked a cake.', 'the twins were thrilled']);
    expect(split('that was the cake the twins loved')).toHaveLength(1);
    expect(split('we visited the museum are you going too?')).toEqual(['we visited the museum.', 'are you going too?']);
    // A phrase in "from", "of" … within the subject ("the view from the top was …"); not "one of the kids".
    expect(split('we hiked all morning the view from the top was amazing')).toEqual([
      'we hiked all morning.',
      'the view from the top was amazing',
    ]);
    // "have been" is the verb; a verb in "-ing" after "I'm" opens no subject.
    expect(split('we adopted two cats my kids have been thrilled')).toEqual([
      'we adopted two cats.',
      'my kids have been thrilled',
    ]);
    expect(split("i'm really loving my new school my teachers are great")).toEqual([
      "I'm really loving my new school.",
      'my teachers are great',
    ]);
    // An object, what a preposition governs, a noun phrase that goes on, a gerund's object: one sentence.
    for (const text of [
      'I took my dad to the lake',
      'we hung out with the twins all afternoon',
      'all my cousins were there',
      'one of the twins is sick',
      'watching the twins play is so fun',
      'I love the way my dad tells stories',
      'we got the tickets just in time',
      'thanks for your advice',
      'did you like my cake are you sure',
    ])
      expect(
        split(text).filter((s) => /^(?:my|the|your)\b/iu.test(s)),
        text,
      ).toEqual([]);
  });

  it('"here\'s" and "let\'s" open a sentence; "I" before "so", "think", "hope" … even after a noun with its article', () => {
    expect(split('we repainted the porch heres how it looks now')).toEqual([
      'we repainted the porch.',
      "here's how it looks now",
    ]);
    expect(split('the weather is perfect lets go for a swim')).toEqual([
      'the weather is perfect.',
      "let's go for a swim",
    ]);
    expect(split('we made a huge mess in the kitchen im so glad mom wasnt home')).toEqual([
      'we made a huge mess in the kitchen.',
      "I'm so glad mom wasn't home",
    ]);
    expect(split('it was a great trip i think we should go back')).toEqual([
      'it was a great trip.',
      'I think we should go back',
    ]);
    // "so let's", "the book I read", "the movie I was so excited about": one sentence.
    for (const text of [
      'so lets do it',
      'and heres the thing',
      'the movie i was so excited about got cancelled',
      'the book i read last week was great',
    ])
      expect(split(text), text).toHaveLength(1);
  });

  it('a wish or a request typed with no subject opens a sentence after a clause', () => {
    expect(split('the concert was so much fun cant wait for the next one')).toEqual([
      'the concert was so much fun.',
      "can't wait for the next one",
    ]);
    expect(split('your garden looks amazing keep it up')).toEqual(['your garden looks amazing.', 'keep it up']);
    expect(split('that was a blast see you soon take care')).toEqual([
      'that was a blast.',
      'see you soon.',
      'take care',
    ]);
    // After its subject, a modal, "let's" or whom it is asked of, it goes on.
    for (const text of [
      "i'll keep you posted",
      'we cant wait to see the new place',
      'my son cant wait for summer',
      'lets keep going with the plan',
      'running helps me keep going',
      'we are going to have fun at the fair',
      'i hope you two have fun',
    ])
      expect(split(text), text).toHaveLength(1);
  });

  it('"we", "they", "you" … before "always", "even", "must", "helps" … opens a sentence', () => {
    expect(split('the puppies are so fluffy they always nap in the sun')).toEqual([
      'the puppies are so fluffy.',
      'they always nap in the sun',
    ]);
    expect(split('the beach was windy we even saw a whale')).toEqual(['the beach was windy.', 'we even saw a whale']);
    // After a noun with its article, a relative clause can be meant ("a trip we even …").
    expect(split('that was a trip we even planned twice')).toHaveLength(1);
    // Not "it" ("watch it even more"), not after a preposition ("for you always").
    for (const text of ['i want to watch it even more', 'i am here for you always', 'that is the gift they gave me'])
      expect(split(text), text).toHaveLength(1);
  });

  it('a verb\'s "-ing" form opens a sentence when it opens a subject ("knitting really helps")', () => {
    expect(split('thanks so much knitting really helps me unwind')).toEqual([
      'thanks so much.',
      'knitting really helps me unwind',
    ]);
    expect(split('we moved last week unpacking boxes is the worst')).toEqual([
      'we moved last week.',
      'unpacking boxes is the worst',
    ]);
    // After what takes it, after a noun it says something of, as a word said of something: one sentence.
    for (const text of [
      'i love painting with my kids',
      'i was running late that morning',
      'the kids playing outside were so loud',
      'it was so rewarding is that weird',
      'we had a blast hiking it was great',
      'i started knitting last year is that weird',
    ])
      expect(
        split(text).filter((s) => /^\p{L}+ing\b/u.test(s)),
        text,
      ).toEqual([]);
  });

  it('"you\'re" before what is said of the listener opens a sentence', () => {
    expect(split('that cake looks perfect youre so talented')).toEqual([
      'that cake looks perfect.',
      "you're so talented",
    ]);
    // A relative clause ("anything you're looking forward to"), what follows "that": one sentence.
    for (const text of ['anything new youre looking forward to', 'i think youre so right', 'the place youre at'])
      expect(split(text), text).toHaveLength(1);
  });

  it('a question whose opening goes on with what came before is no sentence of its own', () => {
    expect(split('what are their names and how long have you had them')).toEqual([
      'what are their names and how long have you had them?',
    ]);
    expect(split('the storm was scary for a bit and do you know what we did?')).toHaveLength(1);
  });

  it('near-misses: one sentence stays one', () => {
    for (const text of [
      'the jacket I bought last week is too small',
      'I think I can make it',
      'Last Saturday I ran my first half marathon',
      "I'm reading The Name of the Wind right now",
      'we watched "All About Eve" and loved it',
      'so I called the plumber',
      'I left my IT job in March',
      'Did I tell you that I got a cat',
    ])
      expect(split(text), text).toHaveLength(1);
  });

  it('where the writer uses full stops, only a capitalised opener starts a sentence', () => {
    expect(repunctuate('I was surprised at how much I enjoyed it', { stopless: false })).toEqual([
      'I was surprised at how much I enjoyed it',
    ]);
    expect(repunctuate("That's great I signed up for pottery", { stopless: false })).toEqual([
      "That's great I signed up for pottery",
    ]);
    expect(repunctuate("That's great I signed up for pottery")).toEqual(["That's great.", 'I signed up for pottery']);
  });

  it('a caption stays with what is said of it; a stretch that is only a caption is left alone', () => {
    expect(split('Look what I made today It took me all week [image: a knitted scarf]')).toEqual([
      'Look what I made today.',
      'It took me all week [image: a knitted scarf]',
    ]);
    expect(split('[image: a knitted scarf]')).toEqual(['[image: a knitted scarf]']);
  });
});

describe('readTurn: a turn typed without full stops forms what the punctuated one does', () => {
  it.each([
    [
      'Hey Sam Good to hear from you I started a new job at the library last month its so quiet but I love it',
      "Hey Sam! Good to hear from you. I started a new job at the library last month. It's so quiet but I love it.",
    ],
    [
      'thanks ben im allergic to shellfish so no paella for me',
      "thanks ben. I'm allergic to shellfish so no paella for me.",
    ],
  ])('%s', (typed, punctuated) => {
    const got = formed(typed).map((line) => line.replace(/[.!]$/u, ''));
    expect(got).not.toEqual([]);
    expect(got).toEqual(formed(punctuated).map((line) => line.replace(/[.!]$/u, '')));
  });
});

describe('expandShorthand: chat shorthand read as the word it stands for', () => {
  it('"u", "ur", "r", "bc", "w/" and the like', () => {
    expect(expandShorthand('i love ur new haircut')).toBe('i love your new haircut');
    expect(expandShorthand('ur so kind, r u ok?')).toBe("you're so kind, are you ok?");
    expect(expandShorthand('U r the best')).toBe('You are the best');
    expect(expandShorthand('she moved bc she got a job, went w/ her sister')).toBe(
      'she moved because she got a job, went with her sister',
    );
    expect(expandShorthand('see u tmrw, no sugar pls')).toBe('see you tomorrow, no sugar please');
    expect(expandShorthand('my gf and her bff, idk why')).toBe("my girlfriend and her best friend, I don't know why");
    expect(expandShorthand('my sis and hubby, thanks bro')).toBe('my sister and husband, thanks brother');
    // Not inside a word ("basis", "brother").
    expect(expandShorthand('on a daily basis with my brother')).toBe('on a daily basis with my brother');
  });

  it('a turn reads the shorthand: "my gf got a job" is about a relation of the speaker\'s', () => {
    expect(formed('my gf got a new job at amazon')).toEqual([
      "fact | Ann's girlfriend | my girlfriend got a new job at amazon",
    ]);
  });

  it('near-misses: inside a word, an abbreviation, a hyphenated word', () => {
    for (const text of ['the U.S. is big', 'a U-turn', 'my urge to run', 'the r&b charts', 'Route 66 w/e'])
      expect(expandShorthand(text)).toBe(text);
  });

  it('a turn reads the shorthand: "i love ur new haircut" is about the listener', () => {
    expect(split('i love ur new haircut')).toEqual(['I love your new haircut']);
  });
});

describe('restoreApostrophes: more contractions typed without one', () => {
  it('"hes", "howve", "lifes", "whered" …', () => {
    expect(restoreApostrophes('hes a bundle of joy howve you been')).toBe("he's a bundle of joy how've you been");
    expect(restoreApostrophes('lifes been busy, whered you go')).toBe("life's been busy, where'd you go");
  });
});
