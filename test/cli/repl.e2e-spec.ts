import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { useWorkflowStack } from '../support/workflow-stack';
import { freePort } from '@nl2p/testing';
import { CLI_BIN, KEY, Terminal, cliEnv, runCli } from './terminal';

jest.setTimeout(90_000);

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const DRIFTED_SQL = GOOD_SQL.replace(
  'avg(temperature) AS avg_temp',
  'avg(temperature) AS avg_temp, max(humidity) AS max_hum',
);
const REVISED_SQL = GOOD_SQL.replace('> 30', '> 35');
const DUCK_SQL =
  'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings WHERE temperature > 30 GROUP BY device_id ORDER BY device_id';
const REQUEST = 'average temperature per device every 10 seconds, only above 30';
/** A stack trace line (`    at fn (file.js:1:2)`): the CLI must never print one. */
const STACK_LINE = /\n\s+at .+:\d+:\d+\)?\n/;

describe('nl2pipeline REPL in a real pseudo-terminal, against the running services', () => {
  // DuckDB too: sessions choose their engine, so SQL targets (with preview rows) run here as well.
  const w = useWorkflowStack({ duckdb: true, env: { PREVIEW_ROWS: '3' } });
  const { manager } = w;
  let home: string;
  let term: Terminal | undefined;

  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'nl2p-cli-'));
  });

  afterEach(() => {
    term?.kill();
    term = undefined;
    rmSync(home, { recursive: true, force: true });
  });

  const start = (extra: Record<string, string> = {}) =>
    new Terminal(CLI_BIN, cliEnv({ NL2P_URL: w.stack.gatewayUrl, HOME: home, ...extra }));

  it('a conversation: look around, choose a stream, watch the draft stream in, a repair, /show, /trace, feedback, accept, /exit', async () => {
    w.script
      .route({ intent: 'nl2sql', stream: null, question: null })
      .draft(() => {
        // Schema drift after the session read its schema: the engine itself rejects `humidity`.
        manager.addStream('sensor_stream', [
          { name: 'device_id', data_type: 'string' },
          { name: 'temperature', data_type: 'float64' },
          { name: 'ts', data_type: 'int64' },
        ]);
        return { content: DRIFTED_SQL, chunkDelayMs: 120 };
      })
      .revise({ sql: GOOD_SQL, questions: [], assumptions: ['windows use processing time'] })
      .revise({ sql: REVISED_SQL, questions: [], assumptions: [] });

    term = start();
    let at = await term.waitFor('nl2p> ');
    expect(term.text).toContain(`session `);
    // Colours on a terminal.
    expect(term.rawOutput).toMatch(/\x1b\[3\dm/);

    // Looking around does not disturb the conversation.
    term.line('/streams');
    at = await term.waitFor(/sensor_stream\s+device_id, temperature, humidity, ts/, at);
    at = await term.waitFor('nl2p> ', at);
    term.line('/describe vehicle');
    at = await term.waitFor('stream vehicle', at);
    at = await term.waitFor(/speed\s+int64/, at);
    at = await term.waitFor('nl2p> ', at);
    // Read from the catalog endpoint: no turn, so no model call.
    expect(w.script.callsOf('router')).toHaveLength(0);

    term.line('/session');
    at = await term.waitFor(/\b[0-9a-f]{32}\b/, at);
    const sessionId = /\b([0-9a-f]{32})\b/.exec(term.text.slice(at - 40))![1];

    // The request: no stream named, so the workflow asks with a numbered list.
    term.line(REQUEST);
    at = await term.waitFor('? Which stream should the pipeline read from?', at);
    at = await term.waitFor(/1\) sensor_stream\s+2\) vehicle/, at);
    at = await term.waitFor('nl2p [1-2]> ', at);
    term.line('7');
    at = await term.waitFor('choose a number from 1 to 2', at);
    at = await term.waitFor('nl2p [1-2]> ', at);

    // Choice 1: the draft streams in live (stderr), well before any result.
    term.line('1');
    at = await term.waitFor('✎ drafting: SELECT device_id,', at);
    const midDraft = term.text.slice(at);
    expect(midDraft).not.toContain("tumblingwindow('ss', 10)");
    expect(midDraft).not.toContain('┌─ SQL');
    // The whole (drifted) draft arrives, then the engine rejects it and the reviser repairs it.
    at = await term.waitFor(
      "max(humidity) AS max_hum FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)",
      at,
    );
    at = await term.waitFor('↻ revising the SQL (attempt 2)', at);
    const resultAt = await term.waitFor('nl2p [y/n/feedback]> ', at);
    const result = term.text.slice(at, resultAt);
    expect(result).toMatch(/✗ attempt 1 failed in the engine: .*No schema bindings available for identifier 'humidity/);
    expect(result).toContain('✓ repaired: attempt 2 passed');
    expect(result).toContain('┌─ SQL');
    expect(result).toContain('SELECT device_id, avg(temperature) AS avg_temp\n│ FROM sensor_stream');
    expect(result).toContain('┌─ explain');
    expect(result).toContain('Physical Plan Explain:');
    expect(result).toContain('windows use processing time');
    expect(result).toContain('? The engine accepted this SQL.');
    at = resultAt;

    term.line('/show pipeline');
    at = await term.waitFor('"id": "REPLACE_ME"', at);
    at = await term.waitFor(`"sql": ${JSON.stringify(GOOD_SQL)}`, at);
    at = await term.waitFor('nl2p [y/n/feedback]> ', at);

    term.line('/trace');
    at = await term.waitFor('trace of turn 2', at);
    const traceEnd = await term.waitFor('nl2p [y/n/feedback]> ', at);
    const trace = term.text.slice(at, traceEnd);
    expect(trace).toMatch(/node\s+service\s+attempt\s+delivery\s+result\s+ms\s+llm calls\s+engine calls/);
    for (const node of [
      'ensure_active_stream',
      'draft_sql',
      'prevalidate',
      'validate',
      'revise_sql',
      'explain',
      'cleanup',
      'confirm',
    ]) {
      expect(trace).toMatch(new RegExp(`\\n${node}\\s+(validator|sql-drafter|explainer)\\s+\\d`));
    }
    expect(trace).toMatch(/draft_sql\s+sql-drafter\s+0\s+1\s+ok\s+\d+\s+1 \(\d+\/\d+ tok\)/);
    at = traceEnd;

    // Free text at the confirmation is feedback: the draft is revised.
    term.line('use 35 as the threshold');
    at = await term.waitFor('↻ revising the SQL (attempt 1)', at);
    at = await term.waitFor('┌─ SQL', at);
    at = await term.waitFor('WHERE temperature > 35', at);
    at = await term.waitFor('nl2p [y/n/feedback]> ', at);
    expect(JSON.stringify(w.script.callsOf('revise')[1].messages)).toContain('use 35 as the threshold');

    // y accepts: the pipeline request is the result.
    term.line('y');
    at = await term.waitFor('✓ accepted', at);
    at = await term.waitFor(`"sql": ${JSON.stringify(REVISED_SQL)}`, at);
    at = await term.waitFor('nl2p> ', at);

    // Hints, never stack traces, for unknown commands and bad arguments.
    term.line('/shwo sql');
    at = await term.waitFor('unknown command /shwo: did you mean /show? (/help lists the commands)', at);
    term.line('/show everything');
    at = await term.waitFor('usage: /show sql|explain|pipeline|preview', at);
    term.line('/use no_such_stream');
    at = await term.waitFor("unknown stream 'no_such_stream'; known streams: sensor_stream, vehicle", at);

    // History: the up arrow brings the last line back.
    term.line('/target');
    at = await term.waitFor('target: veloflux', at);
    at = await term.waitFor('nl2p> ', at);
    term.send(`${KEY.up}${KEY.enter}`);
    at = await term.waitFor('target: veloflux', at);
    at = await term.waitFor('nl2p> ', at);

    term.line('/exit');
    expect(await term.exited).toBe(0);
    expect(term.text).not.toMatch(STACK_LINE);

    // What the terminal showed is what the server holds.
    const view = (await w.api.request('GET', `/v1/sessions/${sessionId}`)).body;
    expect(view).toMatchObject({ status: 'idle', sql: REVISED_SQL, active_stream: 'sensor_stream', turn_id: 4 });
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    // The history survives the session, newest last.
    expect(readFileSync(path.join(home, '.nl2pipeline_history'), 'utf8').trim().split('\n').slice(-3)).toEqual([
      '/use no_such_stream',
      '/target',
      '/exit',
    ]);
  });

  it('an SQL target: preview rows as a table, /show preview, no pipeline request, the SQL on accept', async () => {
    w.script.route({ intent: 'nl2sql', stream: 'sensor_readings', question: null }).draft(DUCK_SQL);
    term = start();
    let at = await term.waitFor('nl2p> ');
    term.line('/target duckdb');
    at = await term.waitFor(/new session [0-9a-f]{32} \(duckdb\)/, at);
    at = await term.waitFor('nl2p> ', at);

    term.line('average temperature per device when above 30');
    at = await term.waitFor('┌─ SQL', at);
    const end = await term.waitFor('nl2p [y/n/feedback]> ', at);
    const result = term.text.slice(at, end);
    expect(result).toContain('FROM sensor_readings');
    expect(result).toMatch(/preview\ndevice_id\s+avg_temp\n─+\s+─+\ndev-01\s+\S+\ndev-03\s+\S+\ndev-05\s+\S+\n/);
    at = end;

    term.line('/show preview');
    at = await term.waitFor(/dev-05\s+\S+/, at);
    term.line('/show pipeline');
    at = await term.waitFor('duckdb sessions have no pipeline request: /show sql and /show preview', at);
    term.line('y');
    at = await term.waitFor('✓ accepted', at);
    at = await term.waitFor(DUCK_SQL, at);
    await term.waitFor('nl2p> ', at);
    term.line('/exit');
    expect(await term.exited).toBe(0);
  });

  it('Ctrl-C stops the running turn but not the program; Ctrl-D leaves; NO_COLOR means no colours', async () => {
    w.script
      .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
      .draft({ content: GOOD_SQL, delayMs: 2_500 });
    term = start({ NO_COLOR: '1' });
    let at = await term.waitFor('nl2p> ');
    term.line('/session');
    at = await term.waitFor(/\b[0-9a-f]{32}\b/, at);
    const sessionId = /\b([0-9a-f]{32})\b/.exec(term.text.slice(at - 40))![1];

    term.line(REQUEST);
    at = await term.waitFor('✎ drafting:', at);
    term.send(KEY.ctrlC);
    // With a cancel endpoint the turn is cancelled; without one the CLI says it goes on.
    at = await term.waitFor(/turn 1 cancelled|turn 1 goes on server-side/, at);
    at = await term.waitFor('nl2p> ', at);

    // Still alive: commands work.
    term.line('/session');
    at = await term.waitFor(sessionId, at);
    at = await term.waitFor('nl2p> ', at);

    // Ctrl-C at the prompt drops the line, not the program.
    term.send('half a request');
    term.send(KEY.ctrlC);
    at = await term.waitFor('(Ctrl-C drops the line; /exit or Ctrl-D leaves)', at);
    await term.waitFor('nl2p> ', at);

    term.send(KEY.ctrlD);
    expect(await term.exited).toBe(0);
    expect(term.rawOutput).not.toMatch(/\x1b\[[0-9;]*m/);
    expect(term.text).not.toMatch(STACK_LINE);

    // Let the server-side turn (if it went on) finish before the next test scripts the LLM.
    const deadline = Date.now() + 20_000;
    while (
      Date.now() < deadline &&
      (await w.api.request('GET', `/v1/sessions/${sessionId}`)).body.status === 'running'
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('a gateway that is down: the REPL says so in one line and exits 1', async () => {
    const port = await freePort();
    term = new Terminal(CLI_BIN, cliEnv({ NL2P_URL: `http://127.0.0.1:${port}`, HOME: home }));
    expect(await term.exited).toBe(1);
    expect(term.text.trim()).toBe(
      `nl2pipeline: cannot reach the gateway at http://127.0.0.1:${port} (ECONNREFUSED): is it running? (set --url or NL2P_URL)`,
    );
  });

  it('without a terminal, piped lines are taken in order: a scripted conversation', async () => {
    w.script.route({ intent: 'nl2sql', stream: null, question: null }).draft(GOOD_SQL);
    const res = await runCli([], cliEnv({ NL2P_URL: w.stack.gatewayUrl, HOME: home }), 30_000, `${REQUEST}\n1\ny\n`);
    expect(res.code).toBe(0);
    const out = res.stdout;
    const asked = out.indexOf('? Which stream should the pipeline read from?');
    const framed = out.indexOf(`┌─ SQL`);
    const accepted = out.indexOf(`"sql": ${JSON.stringify(GOOD_SQL)}`);
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(framed).toBeGreaterThan(asked);
    expect(accepted).toBeGreaterThan(framed);
    expect(res.stderr).toContain('✓ accepted');
    expect(`${res.stdout}${res.stderr}`).not.toMatch(STACK_LINE);
    // Not a terminal: no colours.
    expect(`${res.stdout}${res.stderr}`).not.toMatch(/\x1b\[/);
  });
});
