import { isWord, segment } from './segment';

describe('segment: a glued name read as the words it is made of', () => {
  it.each([
    ['paperid', ['paper', 'id']],
    ['authorname', ['author', 'name']],
    ['citingpaperid', ['citing', 'paper', 'id']],
    ['numcitedby', ['num', 'cited', 'by']],
    ['reviewcount', ['review', 'count']],
    ['username', ['user', 'name']],
    ['zipcode', ['zip', 'code']],
    ['datetime', ['date', 'time']],
  ])('%s → %j', (name, words) => {
    expect(segment(name)).toEqual(words);
  });

  it.each(['season', 'address', 'manager', 'salesperson', 'checkout', 'discount', 'ticker'])(
    'leaves a word of its own whole: %s',
    (name) => {
      expect(isWord(name)).toBe(true);
      expect(segment(name)).toBeNull();
    },
  );

  it('leaves names that are too short or split into no words', () => {
    expect(segment('did')).toBeNull();
    expect(segment('sbtx')).toBeNull();
    expect(segment('crtdts')).toBeNull();
  });
});
