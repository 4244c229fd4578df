import { describe, expect, it } from 'vitest';
import { analyze, stem, STOPWORDS, tokenize } from './text.js';

describe('tokenize', () => {
  it('lowercases and splits on anything that is not a letter or digit', () => {
    expect(tokenize('Hello, World! foo_bar-baz')).toEqual(['hello', 'world', 'foo', 'bar', 'baz']);
  });
  it('keeps numbers, including those inside words', () => {
    const tokens = tokenize('Flight AF447 on 2024-06-01 cost $1,299');
    expect(tokens).toEqual(['flight', 'af447', 'on', '2024', '06', '01', 'cost', '1', '299']);
  });
  it('is Unicode-aware: folds diacritics and keeps non-Latin scripts', () => {
    expect(tokenize('Café Müller — Ελλάδα, 東京')).toEqual(['cafe', 'muller', 'ελλαδα', '東京']);
  });
  it('joins in-word apostrophes', () => {
    expect(tokenize("I don't like o'clock")).toEqual(['i', 'dont', 'like', 'oclock']);
  });
  it("drops a possessive 's so the name itself remains, in every apostrophe", () => {
    expect(tokenize("I don't like Bob’s car")).toEqual(['i', 'dont', 'like', 'bob', 'car']);
    for (const text of ["Donny's birthday", 'Donny’s birthday', 'DONNY‘S birthday', 'Donnyʼs birthday'])
      expect(tokenize(text)).toEqual(['donny', 'birthday']);
    expect(tokenize("James's dog and James’ cat")).toEqual(['james', 'dog', 'and', 'james', 'cat']);
    // Only a final 's: "'sa" or "o'sullivan" are words of their own.
    expect(tokenize("O'Sullivan's pub")).toEqual(['osullivan', 'pub']);
    // Contractions: "it's" leaves a stopword as "its" did; "let's" keeps its s (a stopword), "outlet's" does not.
    expect(analyze("It's what's left, let's go to the outlet's café")).toEqual(['left', 'go', 'outlet', 'cafe']);
  });
  it('splits Chinese runs into overlapping character bigrams', () => {
    expect(tokenize('她的猫叫小米，三岁了。')).toEqual(['她的', '的猫', '猫叫', '叫小', '小米', '三岁', '岁了']);
    // A one-character run stays whole; a two-character run is its one bigram.
    expect(tokenize('猫。东京')).toEqual(['猫', '东京']);
  });
  it('splits Japanese kana and kanji into bigrams, keeping voicing marks and the long-vowel mark', () => {
    expect(tokenize('コーヒーが好き')).toEqual(['コー', 'ーヒ', 'ヒー', 'ーが', 'が好', '好き']);
    // Half-width katakana is widened and its voicing mark recomposed, not folded away.
    expect(tokenize('ｶﾞｯｺｳ')).toEqual(tokenize('ガッコウ'));
    expect(tokenize('ガッコウ')).not.toEqual(tokenize('カッコウ'));
  });
  it('splits Korean into syllable bigrams (never into jamo)', () => {
    expect(tokenize('김치를 좋아해요')).toEqual(['김치', '치를', '좋아', '아해', '해요']);
    expect(tokenize('김치'.normalize('NFD'))).toEqual(['김치']);
  });
  it('splits mixed-script runs where the script changes', () => {
    expect(tokenize('我爱Tokyo2024和iPhone的Café')).toEqual(['我爱', 'tokyo2024', '和', 'iphone', '的', 'cafe']);
  });
  it('treats characters outside the BMP as one character', () => {
    expect(tokenize('𠮷野家')).toEqual(['𠮷野', '野家']);
  });
  it('folds diacritics the same in composed and decomposed text', () => {
    expect(tokenize('München Café Zoë'.normalize('NFC'))).toEqual(['munchen', 'cafe', 'zoe']);
    expect(tokenize('München Café Zoë'.normalize('NFD'))).toEqual(['munchen', 'cafe', 'zoe']);
  });
  it('is idempotent on its own output, so pre-tokenised queries analyse the same', () => {
    for (const text of [
      '她的猫叫小米，三岁了。',
      'コーヒーが好き',
      '김치를 좋아해요',
      '我爱Tokyo和iPhone的Café',
      "Don't stop",
    ]) {
      expect(tokenize(tokenize(text).join(' '))).toEqual(tokenize(text));
    }
  });
  it('returns [] for empty or punctuation-only text and rejects non-strings', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ?! ... ')).toEqual([]);
    expect(() => tokenize(undefined as unknown as string)).toThrow(/text/);
  });
});

describe('stem (Porter)', () => {
  // Pairs from Porter's published vocabulary / output lists.
  const cases: [string, string][] = [
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'ti'],
    ['caress', 'caress'],
    ['cats', 'cat'],
    ['feed', 'feed'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['bled', 'bled'],
    ['motoring', 'motor'],
    ['sing', 'sing'],
    ['conflated', 'conflat'],
    ['troubled', 'troubl'],
    ['sized', 'size'],
    ['hopping', 'hop'],
    ['tanned', 'tan'],
    ['falling', 'fall'],
    ['hissing', 'hiss'],
    ['fizzed', 'fizz'],
    ['failing', 'fail'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['sky', 'sky'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['rational', 'ration'],
    ['valenci', 'valenc'],
    ['digitizer', 'digit'],
    ['conformabli', 'conform'],
    ['radicalli', 'radic'],
    ['differentli', 'differ'],
    ['vileli', 'vile'],
    ['analogousli', 'analog'],
    ['vietnamization', 'vietnam'],
    ['predication', 'predic'],
    ['operator', 'oper'],
    ['feudalism', 'feudal'],
    ['decisiveness', 'decis'],
    ['hopefulness', 'hope'],
    ['callousness', 'callous'],
    ['formaliti', 'formal'],
    ['sensitiviti', 'sensit'],
    ['sensibiliti', 'sensibl'],
    ['triplicate', 'triplic'],
    ['formative', 'form'],
    ['formalize', 'formal'],
    ['electriciti', 'electr'],
    ['electrical', 'electr'],
    ['hopeful', 'hope'],
    ['goodness', 'good'],
    ['revival', 'reviv'],
    ['allowance', 'allow'],
    ['inference', 'infer'],
    ['airliner', 'airlin'],
    ['adjustable', 'adjust'],
    ['defensible', 'defens'],
    ['irritant', 'irrit'],
    ['replacement', 'replac'],
    ['adjustment', 'adjust'],
    ['dependent', 'depend'],
    ['adoption', 'adopt'],
    ['homologou', 'homolog'],
    ['communism', 'commun'],
    ['activate', 'activ'],
    ['angulariti', 'angular'],
    ['homologous', 'homolog'],
    ['effective', 'effect'],
    ['bowdlerize', 'bowdler'],
    ['probate', 'probat'],
    ['rate', 'rate'],
    ['cease', 'ceas'],
    ['controll', 'control'],
    ['roll', 'roll'],
    ['generalization', 'gener'],
    ['running', 'run'],
    ['connections', 'connect'],
    ['yelling', 'yell'],
  ];
  it.each(cases)('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
  it('leaves short words, numbers and non-ASCII words alone', () => {
    expect(stem('is')).toBe('is');
    expect(stem('2024')).toBe('2024');
    expect(stem('ελλαδα')).toBe('ελλαδα');
  });
});

describe('analyze', () => {
  it('drops stopwords and stems the rest', () => {
    expect(analyze('What are the running shoes I bought in 2023?')).toEqual(['run', 'shoe', 'bought', '2023']);
  });
  it('stems Latin words only and keeps CJK bigrams and accented words folded', () => {
    const terms = analyze('I love the cafés in München and 小米的猫');
    expect(terms).toEqual(['love', 'cafe', 'munchen', '小米', '米的', '的猫']);
  });
  it('stopwords are lowercase tokens as tokenize emits them', () => {
    for (const w of STOPWORDS) expect(tokenize(w)).toEqual([w]);
  });
});
