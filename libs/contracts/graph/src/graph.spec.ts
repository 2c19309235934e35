import { NODE_NAMES, newSessionEnvelope, type Envelope, type Intent, type NodeName } from '@nl2p/envelope';
import { END, GRAPH, nodesOf, type Next } from './graph';
import { WORKFLOW_QUEUES } from './queues';

const base = newSessionEnvelope({
  sessionId: 'a'.repeat(32),
  target: 'veloflux',
  maxAttempts: 3,
  sink: { type: 'nop', props: {} },
});

/** Representative states a node can leave behind: every branch an edge function looks at. */
function variants(): Envelope[] {
  const out: Envelope[] = [];
  const intents: (Intent | null)[] = ['list_streams', 'describe_stream', 'nl2sql', 'ask_user', null];
  for (const intent of intents)
    for (const interrupt of [null, { type: 'need_stream' as const, question: 'q', choices: [] }])
      for (const ok of [true, false])
        for (const error of [null, 'boom'])
          for (const attempt of [0, 1, 2, 3])
            out.push({ ...base, intent, interrupt, validation: { ...base.validation, ok, error, attempt } });
  return out;
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
      'route_intent',
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

  it('stops at an interrupt instead of drafting without a stream or an answer', () => {
    const waiting = { ...base, interrupt: { type: 'need_stream' as const, question: 'which?', choices: ['s'] } };
    expect(GRAPH.ensure_active_stream.next(waiting)).toBe(END);
    expect(
      GRAPH.draft_sql.next({ ...waiting, interrupt: { type: 'need_clarification', question: '?', choices: null } }),
    ).toBe(END);
    expect(GRAPH.route_intent.next({ ...base, intent: 'ask_user' })).toBe(END);
  });

  it('gives every workflow queue at least one node', () => {
    for (const q of WORKFLOW_QUEUES) expect(nodesOf(q).length).toBeGreaterThan(0);
  });
});
