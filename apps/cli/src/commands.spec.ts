import { helpText, parseCommand } from './commands';

describe('parseCommand', () => {
  it.each([
    ['/help', { name: 'help' }],
    ['/streams', { name: 'streams' }],
    ['/use sensor_stream', { name: 'use', stream: 'sensor_stream' }],
    ['/use', { name: 'use', stream: undefined }],
    ['/use -', { name: 'use', stream: null }],
    ['/describe vehicle', { name: 'describe', stream: 'vehicle' }],
    ['/show SQL', { name: 'show', what: 'sql' }],
    ['/show preview', { name: 'show', what: 'preview' }],
    ['/trace', { name: 'trace', turn: 'last' }],
    ['/trace 3', { name: 'trace', turn: 3 }],
    ['/trace all', { name: 'trace', turn: 'all' }],
    ['/target', { name: 'target', target: undefined }],
    ['/target duckdb', { name: 'target', target: 'duckdb' }],
    ['/new', { name: 'new' }],
    ['/session', { name: 'session', id: undefined }],
    [`/session ${'a'.repeat(32)}`, { name: 'session', id: 'a'.repeat(32) }],
    ['/exit', { name: 'exit' }],
    ['/quit', { name: 'exit' }],
    ['  /show   pipeline  ', { name: 'show', what: 'pipeline' }],
  ])('%s', (line, command) => {
    expect(parseCommand(line)).toEqual({ ok: true, command });
  });

  it.each([
    ['/shwo sql', 'unknown command /shwo: did you mean /show? (/help lists the commands)'],
    ['/trce', 'unknown command /trce: did you mean /trace? (/help lists the commands)'],
    ['/frobnicate', 'unknown command /frobnicate (/help lists the commands)'],
    ['/', 'a command follows the slash: /help lists them'],
    ['/show', 'usage: /show sql|explain|pipeline|preview'],
    ['/show tables', 'usage: /show sql|explain|pipeline|preview'],
    ['/describe', 'usage: /describe <stream>'],
    ['/use a b', 'usage: /use <stream>  (one stream name; /use - forgets it)'],
    ['/trace last-week', 'usage: /trace [turn number|all]'],
    ['/target oracle', 'usage: /target [veloflux|duckdb|postgres]'],
    ['/session 42', 'usage: /session [id]  (an id is 32 lowercase hex characters)'],
    ['/exit now', '/exit takes no arguments'],
  ])('%s gets a one-line hint', (line, hint) => {
    expect(parseCommand(line)).toEqual({ ok: false, hint });
    expect(hint).not.toContain('\n');
  });

  it('lists every command in /help', () => {
    const help = helpText();
    for (const c of [
      '/help',
      '/streams',
      '/use',
      '/describe',
      '/show',
      '/trace',
      '/target',
      '/new',
      '/session',
      '/exit',
    ]) {
      expect(help).toContain(c);
    }
  });
});
