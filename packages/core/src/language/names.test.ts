import { describe, expect, it } from 'vitest';
import { editDistance, KnownNames, nameDistance, namesInText, resolveName, sameName, speakerName } from './names.js';

describe('sameName: one person across spellings', () => {
  it.each([
    ['Mohammed', 'Muhammad'],
    ['Mohamed', 'Muhammad'],
    ['Katarina', 'Katrina'],
    ['Catarina', 'Katarina'],
    ['Anna', 'Ana'],
    ['Caroline', 'Carolien'], // an adjacent swap
    ['Melanie', 'Melanei'],
    ['Jolene', 'Joline'], // one letter, six letters
    ['Bob', 'Robert'], // a nickname
    ['Liz', 'Elizabeth'],
    ['Zoë', 'Zoe'],
    ['Brian', 'Bryan'],
  ])('%s = %s', (a, b) => {
    expect(sameName(a, b)).toBe(true);
    expect(sameName(b, a)).toBe(true);
  });

  it.each([
    ['Mark', 'Mary'],
    ['Jon', 'Jan'],
    ['Dana', 'Dina'],
    ['Timmy', 'Tommy'],
    ['Maria', 'Mario'],
    ['Jason', 'Mason'],
    ['Samuel', 'Samantha'], // both "Sam", still two names
    ['Ana', 'Ina'],
    ['Tim', 'Tom'],
    ['Evan', 'Ivan'],
  ])('%s ≠ %s', (a, b) => {
    expect(sameName(a, b)).toBe(false);
  });

  it('ranks closer spellings first', () => {
    expect(nameDistance('Katrina', 'Katrina')).toBe(0);
    expect(nameDistance('Katrina', 'Katarina')).toBe(1);
    expect(nameDistance('Mohammed', 'Muhammad')).toBe(2);
    expect(editDistance('abcd', 'abdc')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('resolveName: a query name read against the names a store knows', () => {
  const known = new Set(['muhammad', 'katrina', 'mark', 'caroline', 'melanie']);
  it('an exact name is itself, never a variant', () => {
    expect(resolveName('Mark', new Set([...known, 'marc']))).toEqual(['mark']);
  });
  it('a variant resolves to the known spelling', () => {
    expect(resolveName('Mohammed', known)).toEqual(['muhammad']);
    expect(resolveName('Katarina', known)).toEqual(['katrina']);
    expect(resolveName('Carolien', known)).toEqual(['caroline']);
  });
  it('no merge with a different name', () => {
    expect(resolveName('Mary', known)).toEqual([]);
    expect(resolveName('Melvin', known)).toEqual([]);
  });
});

describe('namesInText', () => {
  it('reads the speaker label and capitalised words that do not start a sentence', () => {
    expect(namesInText('Caroline: Hey Mel! I met Katrina in Lisbon. Today was fun.').sort()).toEqual([
      'caroline',
      'katrina',
      'lisbon',
      'mel',
    ]);
  });
});

describe('speakerName', () => {
  it('reads the label of a stored turn, without a possessive', () => {
    expect(speakerName('Tomasz: I rest by reading.')).toBe('tomasz');
    expect(speakerName("Inês's: hi")).toBe('ines');
    expect(speakerName('I rest by reading: novels mostly.')).toBeUndefined();
  });
});

describe('KnownNames: the names a store knows, and the people among them', () => {
  it('counts as people whom memories are of, and the spellings of theirs the memories use, in any order', () => {
    const known = new KnownNames();
    for (const n of ['mel', 'lisbon', 'park', 'tom']) known.addName(n);
    known.addPerson('melanie');
    known.addPerson('thomas');
    known.addName('tommy');
    known.addName('marlene');
    expect([...known.people].sort()).toEqual(['mel', 'melanie', 'thomas', 'tom', 'tommy']);
    expect([...known.names].sort()).toEqual(['lisbon', 'marlene', 'mel', 'melanie', 'park', 'thomas', 'tom', 'tommy']);
  });
});
