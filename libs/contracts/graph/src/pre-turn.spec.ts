import { newSessionEnvelope, type Envelope } from '@nl2p/envelope';
import { HISTORY_LAST_N } from './history';
import { matchStream, preTurn } from './pre-turn';

const fresh = newSessionEnvelope({
  sessionId: 'b'.repeat(32),
  target: 'veloflux',
  maxAttempts: 3,
  sink: { type: 'nop', props: {} },
});
const withStreams: Envelope = {
  ...fresh,
  streams: ['sensor_stream', 'vehicle'],
  request: 'avg temp',
  intent: 'nl2sql',
};

describe('preTurn', () => {
  it('starts a new request at init_session with a fresh budget and a new turn id', () => {
    const d = preTurn({ ...fresh, validation: { ...fresh.validation, attempt: 3 } }, { text: ' avg temperature ' });
    expect(d.kind).toBe('run');
    if (d.kind !== 'run') return;
    expect(d.first).toBe('init_session');
    expect(d.envelope.turn_id).toBe(1);
    expect(d.envelope.status).toBe('running');
    expect(d.envelope.request).toBe('avg temperature');
    expect(d.envelope.validation.attempt).toBe(0);
  });

  it('confirm at need_confirm ends the turn at once, keeping the result', () => {
    const pending: Envelope = {
      ...withStreams,
      draft: { ...withStreams.draft, sql: 'SELECT 1 FROM s' },
      interrupt: { type: 'need_confirm', question: 'ok?', choices: null },
    };
    for (const input of [{ confirm: true }, { text: 'yes' }]) {
      const d = preTurn(pending, input);
      expect(d.kind).toBe('done');
      if (d.kind === 'done') {
        expect(d.envelope.status).toBe('idle');
        expect(d.envelope.interrupt).toBeNull();
        expect(d.envelope.draft.sql).toBe('SELECT 1 FROM s');
      }
    }
  });

  it('feedback at need_confirm revises with a fresh attempt budget', () => {
    const pending: Envelope = {
      ...withStreams,
      validation: {
        ...withStreams.validation,
        attempt: 3,
        failures: [{ attempt: 1, sql: 'x', stage: 'local', error: 'e' }],
      },
      interrupt: { type: 'need_confirm', question: 'ok?', choices: null },
    };
    const d = preTurn(pending, { feedback: 'threshold 35' });
    expect(d).toMatchObject({ kind: 'run', first: 'revise_sql' });
    if (d.kind === 'run') {
      expect(d.envelope.feedback).toBe('threshold 35');
      expect(d.envelope.validation).toMatchObject({ attempt: 0, failures: [] });
    }
  });

  it("feedback drops the previous plan and pipeline request: nothing unaccepted is shown as this turn's", () => {
    const pending: Envelope = {
      ...withStreams,
      draft: { ...withStreams.draft, sql: 'SELECT a FROM s' },
      explain: {
        pretty: 'Project_1 …',
        pipeline_request: { id: 'REPLACE_ME', sql: 'SELECT a FROM s' },
        preview: null,
        preview_error: null,
      },
      interrupt: { type: 'need_confirm', question: 'ok?', choices: null },
    };
    const d = preTurn(pending, { feedback: 'only above 30' });
    expect(d.kind).toBe('run');
    if (d.kind === 'run') {
      expect(d.envelope.explain).toEqual({ pretty: null, pipeline_request: null, preview: null, preview_error: null });
      // The SQL to revise stays: revise_sql starts from it.
      expect(d.envelope.draft.sql).toBe('SELECT a FROM s');
    }
  });

  it('a plainly new request at need_confirm starts over', () => {
    const pending: Envelope = { ...withStreams, interrupt: { type: 'need_confirm', question: 'ok?', choices: null } };
    expect(preTurn(pending, { text: 'list the streams' })).toMatchObject({ kind: 'run', first: 'init_session' });
  });

  it('a stream answer naming a real stream resumes the original request', () => {
    const pending: Envelope = {
      ...withStreams,
      interrupt: { type: 'need_stream', question: 'which?', choices: withStreams.streams },
    };
    for (const input of [{ stream: 'vehicle' }, { text: 'VEHICLE' }]) {
      const d = preTurn(pending, input);
      expect(d).toMatchObject({ kind: 'run', first: 'ensure_active_stream' });
      if (d.kind === 'run') {
        expect(d.envelope.active_stream).toBe('vehicle');
        expect(d.envelope.request).toBe('avg temp');
      }
    }
    expect(preTurn({ ...pending, intent: 'describe_stream' }, { stream: 'vehicle' })).toMatchObject({
      first: 'describe_stream',
    });
  });

  it('refuses a stream choice that is not a real stream, and treats other text as a new request', () => {
    const pending: Envelope = {
      ...withStreams,
      interrupt: { type: 'need_stream', question: 'which?', choices: withStreams.streams },
    };
    expect(preTurn(pending, { stream: 'nope' })).toMatchObject({ kind: 'reject' });
    expect(preTurn(pending, { text: 'show all streams please' })).toMatchObject({ kind: 'run', first: 'init_session' });
  });

  it('keeps a clarification reply for the link node to read against what was asked; the request stays as said', () => {
    const asked = {
      kind: 'threshold' as const,
      word: 'hot',
      table: 'sensor_stream',
      column: { column: 'temperature' },
    };
    const pending: Envelope = {
      ...withStreams,
      node: 'draft_sql',
      interrupt: { type: 'need_clarification', question: 'which threshold?', choices: null, asked },
    };
    const d = preTurn(pending, { text: '30 degrees' });
    expect(d).toMatchObject({ kind: 'run', first: 'link' });
    if (d.kind === 'run') {
      expect(d.envelope.request).toBe('avg temp');
      expect(d.envelope.reply).toEqual({ asked, text: '30 degrees' });
    }
    // A question without a recorded slot (an older checkpoint) is an open question.
    const legacy = preTurn({ ...pending, interrupt: { ...pending.interrupt!, asked: undefined } }, { text: 'x' });
    if (legacy.kind === 'run')
      expect(legacy.envelope.reply?.asked).toEqual({ kind: 'open', question: 'which threshold?' });
  });

  it('"never mind" at a clarification drops the request and ends the turn', () => {
    const pending: Envelope = {
      ...withStreams,
      interrupt: { type: 'need_clarification', question: 'which?', choices: null },
    };
    for (const text of ['never mind', 'Nevermind.', 'cancel', 'forget it']) {
      const d = preTurn(pending, { text });
      expect(d).toMatchObject({ kind: 'done', envelope: { status: 'idle', interrupt: null } });
      if (d.kind === 'done') expect(d.envelope.answer?.text).toMatch(/Dropped/);
    }
  });

  it('drops the reading of a request the turn no longer serves', () => {
    const reading = { request: 'avg temp' } as unknown as NonNullable<Envelope['reading']>;
    const pending: Envelope = {
      ...withStreams,
      reading,
      node: 'draft_sql',
      interrupt: { type: 'need_clarification', question: 'which threshold?', choices: null },
    };
    const joined = preTurn(pending, { text: '30 degrees' });
    expect(joined.kind === 'run' && joined.envelope.reading).toBeNull();
    const another = preTurn({ ...pending, interrupt: null }, { text: 'max humidity' });
    expect(another.kind === 'run' && another.envelope.reading).toBeNull();
    // A stream answer resumes the same request: its reading stays.
    const streamAnswer = preTurn(
      { ...pending, interrupt: { type: 'need_stream', question: 'which?', choices: withStreams.streams } },
      { stream: withStreams.streams[0] },
    );
    expect(streamAnswer.kind === 'run' && streamAnswer.envelope.reading).toBe(reading);
  });

  it('says what a session waiting for a confirmation expects when a stream choice comes alone', () => {
    const waiting = { ...fresh, interrupt: { type: 'need_confirm' as const, question: 'ok?', choices: null } };
    const decision = preTurn(waiting, { stream: 'orders' });
    expect(decision).toMatchObject({ kind: 'reject' });
    expect(decision.kind === 'reject' && decision.message).toMatch(/waits for a confirmation.*"confirm": true/);
    expect(preTurn(fresh, { stream: 'orders' })).toMatchObject({
      kind: 'reject',
      message: expect.stringMatching(/no which-stream question is pending/),
    });
  });

  it('rejects confirm or feedback with nothing pending, and empty text', () => {
    expect(preTurn(fresh, { confirm: true })).toMatchObject({ kind: 'reject' });
    expect(preTurn(fresh, { feedback: 'x' })).toMatchObject({ kind: 'reject' });
    expect(preTurn(fresh, { text: '   ' })).toMatchObject({ kind: 'reject' });
  });

  it('keeps history bounded to a summary plus the last N messages', () => {
    let e = fresh;
    for (let i = 0; i < HISTORY_LAST_N + 5; i++) {
      const d = preTurn({ ...e, status: 'idle' }, { text: `request ${i}` });
      if (d.kind !== 'run') throw new Error('expected run');
      e = d.envelope;
    }
    expect(e.history.messages).toHaveLength(HISTORY_LAST_N);
    expect(e.history.summary).toContain('request 0');
  });
});

describe('matchStream', () => {
  it('prefers an exact match and accepts a unique case-insensitive one', () => {
    expect(matchStream(['a', 'B'], 'a')).toBe('a');
    expect(matchStream(['a', 'B'], 'b')).toBe('B');
    expect(matchStream(['ab', 'AB'], 'Ab')).toBeUndefined();
    expect(matchStream(['a'], 'c')).toBeUndefined();
  });

  describe('SQL the person edited', () => {
    const waiting: Envelope = {
      ...withStreams,
      active_stream: 'sensor_stream',
      draft: { ...withStreams.draft, sql: 'SELECT a FROM sensor_stream', mode: 'plan' },
      explain: { ...withStreams.explain, pretty: 'plan', pipeline_request: { id: 'REPLACE_ME' } },
      validation: { ...withStreams.validation, attempt: 2, ok: true },
      interrupt: { type: 'need_confirm', question: 'ok?', choices: null },
    };

    it('replaces the draft and is checked from prevalidate, with nothing of the earlier SQL left to show', () => {
      const d = preTurn(waiting, { sql: '  SELECT b FROM sensor_stream ' });
      expect(d).toMatchObject({ kind: 'run', first: 'prevalidate' });
      if (d.kind !== 'run') return;
      expect(d.envelope.draft).toMatchObject({ sql: 'SELECT b FROM sensor_stream', mode: 'sql', plan: null });
      expect(d.envelope.validation).toMatchObject({ attempt: 0, ok: false, failures: [] });
      expect(d.envelope.explain).toMatchObject({ pretty: null, pipeline_request: null });
      expect(d.envelope.interrupt).toBeNull();
      expect(d.envelope.user_input.sql).toBe('  SELECT b FROM sensor_stream ');
    });

    it('is taken after an accepted answer and after a failed check, not before any SQL or at a stream choice', () => {
      expect(preTurn({ ...waiting, status: 'idle', interrupt: null }, { sql: 'SELECT 1' })).toMatchObject({
        kind: 'run',
      });
      const failed: Envelope = { ...waiting, interrupt: { type: 'need_clarification', question: 'no', choices: null } };
      expect(preTurn(failed, { sql: 'SELECT 1' })).toMatchObject({ kind: 'run' });
      expect(preTurn(withStreams, { sql: 'SELECT 1' })).toMatchObject({
        kind: 'reject',
        message: expect.stringContaining('no SQL in this session') as string,
      });
      const choosing: Envelope = { ...waiting, interrupt: { type: 'need_stream', question: 'which?', choices: [] } };
      expect(preTurn(choosing, { sql: 'SELECT 1' })).toMatchObject({ kind: 'reject' });
      expect(preTurn(waiting, { sql: '   ' })).toMatchObject({
        kind: 'reject',
        message: 'sql must be a non-empty SELECT',
      });
    });
  });
});
