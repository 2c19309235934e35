import { parseCommand } from './commands';
import { parseExamplesArgs, renderExamples } from './examples';
import { makeStyle } from './style';

const plainStyle = makeStyle(false);

describe('the CLI’s confirmed questions', () => {
  it.each([
    [[], { name: 'list' }],
    [['list'], { name: 'list' }],
    [['forget', '0123456789abcdef'], { name: 'forget', id: '0123456789abcdef' }],
    [['forget'], 'usage: /examples forget <id>'],
    [['drop', 'x'], 'usage: /examples [list | forget <id>]'],
  ])('reads %j', (args, expected) => {
    expect(parseExamplesArgs(args)).toEqual(expected);
  });

  it('is a REPL command', () => {
    expect(parseCommand('/examples forget 0123456789abcdef')).toEqual({
      ok: true,
      command: { name: 'examples', action: { name: 'forget', id: '0123456789abcdef' } },
    });
  });

  it('lists each question under its id, with its SQL and whether it can be reused', () => {
    const out = renderExamples(
      [
        {
          id: 'ab',
          request: 'orders per status',
          sql: 'SELECT 1',
          target: 'duckdb',
          reusable: false,
          confirmed_at: 'T',
        },
      ],
      plainStyle,
    );
    expect(out).toBe('ab  orders per status\n  SELECT 1  (duckdb, T, not reusable)');
  });
});
