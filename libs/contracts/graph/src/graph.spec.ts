import {
  NODE_NAMES,
  newSessionEnvelope,
  type Envelope,
  type Intent,
  type NodeName,
  type Reading,
} from '@nl2p/envelope';
import { QueryPlan } from '@nl2p/query-plan';
import { END, GRAPH, nodesOf, readingTrusted, type Next } from './graph';
import { WORKFLOW_QUEUES } from './queues';

const base = newSessionEnvelope({
  sessionId: 'a'.repeat(32),
  target: 'veloflux',
  maxAttempts: 3,
  sink: { type: 'nop', props: {} },
});

const REQUEST = 'average temperature per device';

/** A reading of {@link REQUEST} that settles it: conclusive and trusted, its plan on `sensor_stream`. */
function reading(over: Partial<Reading> = {}): Reading {
  return {
    request: REQUEST,
    intent: 'nl2sql',
    named_table: null,
    tables: [{ table: 'sensor_stream', score: 1 }],
    table: 'sensor_stream',
    plan: QueryPlan.parse({ source: 'sensor_stream' }),
    columns: [],
    tokens: [],
    unknown: [],
    ambiguous: [],
    unexplained: [],
    assumptions: [],
    doubts: [],
    confidence: 'high',
    trusted: true,
    ...over,
  };
}

/** Representative states a node can leave behind: every branch an edge function looks at. */
function variants(): Envelope[] {
  const out: Envelope[] = [];
  const intents: (Intent | null)[] = ['list_streams', 'describe_stream', 'nl2sql', 'ask_user', null];
  const readings = [null, reading(), reading({ trusted: false })];
  for (const intent of intents)
    for (const interrupt of [null, { type: 'need_stream' as const, question: 'q', choices: [] }])
      for (const ok of [true, false])
        for (const error of [null, 'boom'])
          for (const attempt of [0, 1, 2, 3])
            for (const r of readings)
              for (const sql of [null, 'SELECT 1'])
                out.push({
                  ...base,
                  intent,
                  interrupt,
                  request: REQUEST,
                  reading: r,
                  active_stream: 'sensor_stream',
                  draft: { ...base.draft, sql },
                  validation: { ...base.validation, ok, error, error_stage: error ? 'local' : null, attempt },
                });
  // The same states in a session over all SQL sources, and one that answered there.
  const answered: Envelope = {
    ...base,
    sources: 'all',
    answer: { kind: 'message', text: 'The count is 3.' },
    explain: { ...base.explain, preview: { columns: ['n'], rows: [[3]], truncated: false } },
  };
  return [...out, ...out.map((e) => ({ ...e, sources: 'all' as const })), answered];
}

function edges(node: NodeName): Set<Next> {
  return new Set(variants().map((v) => GRAPH[node].next(v)));
}

describe('the workflow graph', () => {
  it('defines every node exactly once, each on a workflow queue', () => {
    expect(Object.keys(GRAPH).sort()).toEqual([...NODE_NAMES].sort());
    for (const n of NODE_NAMES) expect(WORKFLOW_QUEUES).toContain(GRAPH[n].queue);
  });

  it('reaches every node from the entry points pre_turn can choose', () => {
    const entries: NodeName[] = [
      'init_session',
      'ensure_active_stream',
      'describe_stream',
      'revise_sql',
      'link',
      'prevalidate',
    ];
    const seen = new Set<NodeName>(entries);
    const todo = [...entries];
    while (todo.length) {
      for (const next of edges(todo.pop()!)) {
        if (next !== END && !seen.has(next)) {
          seen.add(next);
          todo.push(next);
        }
      }
    }
    expect([...seen].sort()).toEqual([...NODE_NAMES].sort());
  });

  it('runs a request over all sources on run_sources, unless the reading asked or answered', () => {
    const e = { ...base, sources: 'all' as const, request: REQUEST, reading: reading({ trusted: false }) };
    expect(GRAPH.link.next(e)).toBe('run_sources');
    expect(GRAPH.link.next({ ...e, interrupt: { type: 'need_clarification', question: 'q', choices: null } })).toBe(
      END,
    );
    expect(GRAPH.link.next({ ...e, sources: null, intent: null })).toBe('route_intent');
    expect(GRAPH.run_sources.next(e)).toBe(END);
  });

  it('words an answer over sources on word_answer, and only an answer with rows', () => {
    const answered = {
      ...base,
      sources: 'all' as const,
      answer: { kind: 'message' as const, text: 'The count is 3.' },
      explain: { ...base.explain, preview: { columns: ['n'], rows: [[3]], truncated: false } },
    };
    expect(GRAPH.run_sources.next(answered)).toBe('word_answer');
    expect(GRAPH.run_sources.next({ ...answered, explain: base.explain })).toBe(END);
    const asked = { ...answered, interrupt: { type: 'need_clarification' as const, question: 'q', choices: null } };
    expect(GRAPH.run_sources.next(asked)).toBe(END);
    expect(GRAPH.word_answer.next(answered)).toBe(END);
  });

  it('reaches END from every node', () => {
    const reachesEnd = new Set<NodeName>();
    let grew = true;
    while (grew) {
      grew = false;
      for (const n of NODE_NAMES) {
        if (reachesEnd.has(n)) continue;
        if ([...edges(n)].some((e) => e === END || reachesEnd.has(e))) {
          reachesEnd.add(n);
          grew = true;
        }
      }
    }
    expect([...reachesEnd].sort()).toEqual([...NODE_NAMES].sort());
  });

  it('bounds the repair loop: a draft that always fails ends in give_up after max_attempts', () => {
    // Simulate the nodes' effect on attempts: draft and revise add one; checks always fail.
    let e: Envelope = { ...base, intent: 'nl2sql' };
    let node: Next = 'draft_sql';
    const path: Next[] = [];
    while (node !== END && path.length < 50) {
      path.push(node);
      if (node === 'draft_sql' || node === 'revise_sql')
        e = { ...e, validation: { ...e.validation, attempt: e.validation.attempt + 1, error: null, ok: false } };
      if (node === 'prevalidate')
        e = { ...e, validation: { ...e.validation, error: e.validation.attempt % 2 ? 'local' : null } };
      if (node === 'validate') e = { ...e, validation: { ...e.validation, ok: false, error: 'engine' } };
      if (node === 'give_up') e = { ...e, interrupt: { type: 'need_clarification', question: 'q', choices: null } };
      node = GRAPH[node].next(e);
    }
    expect(path.filter((n) => n === 'revise_sql')).toHaveLength(2);
    expect(path[path.length - 1]).toBe('give_up');
  });

  it("never sends the person's own SQL to a model for repair: a failed check gives up at once, saying why", () => {
    const edited: Envelope = { ...base, intent: 'nl2sql', user_input: { sql: 'SELECT nope FROM s' } };
    const local = { ...edited, validation: { ...edited.validation, error: 'no column nope' } };
    expect(GRAPH.prevalidate.next(local)).toBe('give_up');
    expect(GRAPH.validate.next({ ...edited, validation: { ...edited.validation, ok: false } })).toBe('give_up');
    expect(GRAPH.validate.next({ ...edited, validation: { ...edited.validation, ok: true } })).toBe('explain');
    // The same failure of a drafted SQL is repaired while the budget lasts.
    expect(GRAPH.prevalidate.next({ ...local, user_input: { text: 'x' } })).toBe('revise_sql');
  });

  it('stops at an interrupt instead of drafting without a stream or an answer', () => {
    const waiting = { ...base, interrupt: { type: 'need_stream' as const, question: 'which?', choices: ['s'] } };
    expect(GRAPH.ensure_active_stream.next(waiting)).toBe(END);
    expect(
      GRAPH.draft_sql.next({ ...waiting, interrupt: { type: 'need_clarification', question: '?', choices: null } }),
    ).toBe(END);
    expect(GRAPH.route_intent.next({ ...base, intent: 'ask_user' })).toBe(END);
  });

  describe('the reading (ARCHITECTURE §7a)', () => {
    const query: Envelope = { ...base, request: REQUEST, intent: 'nl2sql', reading: reading() };

    it('comes right after init_session, on the validator', () => {
      expect(GRAPH.init_session.next(base)).toBe('link');
      expect(GRAPH.link.queue).toBe(GRAPH.init_session.queue);
      expect(GRAPH.compile_plan.queue).toBe(GRAPH.init_session.queue);
    });

    it('a settled reading skips the router; anything else is routed as before', () => {
      expect(GRAPH.link.next(query)).toBe('ensure_active_stream');
      expect(GRAPH.link.next({ ...query, reading: reading({ trusted: false }) })).toBe('route_intent');
      expect(GRAPH.link.next({ ...query, intent: null })).toBe('route_intent');
      expect(GRAPH.link.next({ ...query, reading: null })).toBe('route_intent');
      // A reading of another request (the request changed since) settles nothing.
      expect(GRAPH.link.next({ ...query, request: 'something else' })).toBe('route_intent');
      expect(GRAPH.link.next({ ...query, reading: reading({ plan: null }) })).toBe('route_intent');
      expect(readingTrusted({ ...query, request: 'something else' })).toBe(false);
    });

    it('compiles the trusted plan on the validator when it reads from the stream the turn settled on', () => {
      expect(GRAPH.ensure_active_stream.next({ ...query, active_stream: 'sensor_stream' })).toBe('compile_plan');
      // Another stream (the person named it), an untrusted reading or none: the drafter.
      expect(GRAPH.ensure_active_stream.next({ ...query, active_stream: 'vehicle' })).toBe('draft_sql');
      expect(
        GRAPH.ensure_active_stream.next({
          ...query,
          active_stream: 'sensor_stream',
          reading: reading({ trusted: false }),
        }),
      ).toBe('draft_sql');
      expect(GRAPH.ensure_active_stream.next({ ...query, active_stream: 'sensor_stream', reading: null })).toBe(
        'draft_sql',
      );
      const waiting = { ...query, interrupt: { type: 'need_stream' as const, question: 'which?', choices: [] } };
      expect(GRAPH.ensure_active_stream.next(waiting)).toBe(END);
    });

    it('after compile_plan: SQL to the local check, a local failure to repair, nothing compiled to the drafter', () => {
      const compiled = { ...query, draft: { ...query.draft, sql: 'SELECT 1', mode: 'plan' as const } };
      expect(GRAPH.compile_plan.next(compiled)).toBe('prevalidate');
      const failed = {
        ...query,
        validation: { ...query.validation, attempt: 1, error: 'no column x', error_stage: 'local' as const },
      };
      expect(GRAPH.compile_plan.next(failed)).toBe('revise_sql');
      expect(GRAPH.compile_plan.next({ ...failed, validation: { ...failed.validation, attempt: 3 } })).toBe('give_up');
      expect(GRAPH.compile_plan.next(query)).toBe('draft_sql');
    });

    it('a conclusive turn runs on the validator from init_session to validate, then the explainer', () => {
      // The nodes' effect, simulated: the stream is the plan's, the plan compiles, the engine accepts.
      let e: Envelope = { ...base, request: REQUEST };
      let node: Next = 'init_session';
      const path: NodeName[] = [];
      while (node !== END && path.length < 20) {
        path.push(node);
        if (node === 'link') e = { ...e, intent: 'nl2sql', reading: reading() };
        if (node === 'ensure_active_stream') e = { ...e, active_stream: 'sensor_stream' };
        if (node === 'compile_plan')
          e = {
            ...e,
            draft: { ...e.draft, sql: 'SELECT 1', mode: 'plan' },
            validation: { ...e.validation, attempt: 1 },
          };
        if (node === 'validate') e = { ...e, validation: { ...e.validation, ok: true } };
        if (node === 'confirm') e = { ...e, interrupt: { type: 'need_confirm', question: 'ok?', choices: null } };
        node = GRAPH[node].next(e);
      }
      expect(path).toEqual([
        'init_session',
        'link',
        'ensure_active_stream',
        'compile_plan',
        'prevalidate',
        'validate',
        'explain',
        'cleanup',
        'confirm',
      ]);
      const services = path.map((n) => GRAPH[n].queue).filter((q, i, all) => q !== all[i - 1]);
      expect(services).toEqual(['validator', 'explainer']);
    });
  });

  it('gives every workflow queue at least one node', () => {
    for (const q of WORKFLOW_QUEUES) expect(nodesOf(q).length).toBeGreaterThan(0);
  });
});
