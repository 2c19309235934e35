import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  firstMissing,
  stepOutputs,
  walkthroughScript,
  walkthroughSteps,
  WALKTHROUGH_MARK,
} from '../support/readme-walkthrough';

const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

describe('reading the README walk-through', () => {
  it('cuts marked blocks into commands and what each prints; narration and unmarked blocks are left out', () => {
    const md = [
      '```bash',
      'echo unmarked',
      '```',
      WALKTHROUGH_MARK,
      '',
      '```bash',
      'X=$(echo one)',
      '# narration',
      'echo $X \\',
      '  two',
      '# → one two',
      '#   and more',
      '',
      'echo three   # a trailing comment',
      '# → three',
      '```',
    ].join('\n');
    expect(walkthroughSteps(md)).toEqual([
      { command: 'X=$(echo one)\necho $X \\\n  two', expected: ['one two', 'and more'] },
      { command: 'echo three   # a trailing comment', expected: ['three'] },
    ]);
  });

  it('finds every expected line in order, … standing for any text, whitespace aside', () => {
    expect(firstMissing('a  b\nc 12.345\nd', ['a b', 'c 12.3…', 'd'])).toBeNull();
    expect(firstMissing('a\nb', ['b', 'a'])).toBe('a');
    expect(firstMissing('a', ['a', 'x'])).toBe('x');
  });

  it('runs the steps in one script against the address given, each output after its separator', () => {
    const script = walkthroughScript([{ command: 'GW=http://127.0.0.1:3000', expected: [] }], 'http://127.0.0.1:4999');
    expect(script).toContain('GW=http://127.0.0.1:4999');
    expect(
      stepOutputs(`${script.includes('@@') ? '' : 'x'}@@walkthrough-step@@\na\n@@walkthrough-step@@\nb\n`),
    ).toEqual(['a\n', 'b\n']);
  });

  it('the README has a walk-through whose every curl shows what it prints', () => {
    const steps = walkthroughSteps(README);
    expect(steps.length).toBeGreaterThan(10);
    const silent = steps.filter(
      (s) => /\bcurl\b/.test(s.command) && !/^\w+=\$\(/.test(s.command) && !s.expected.length,
    );
    expect(silent).toEqual([]);
  });
});
