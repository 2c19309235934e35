import type { TurnBody } from '@nl2p/gateway-client';
import { type BenchClient, newSession, timedTurn } from './client';
import { round } from './stats';

/** Where one turn's wall time went, from the node records of the trace log (`GET …/trace`). */
export interface TurnTimeSplit {
  turns: number;
  /** Client's POST to the first node's start: HTTP, gateway, `pre_turn`, first checkpoint and queue hop. */
  before_first_node_ms: number;
  /** Sum of the node runs (handler, checkpoint read, events): each record's start to end. */
  node_runs_ms: number;
  /** Sum of the gaps between one node's end and the next one's start: checkpoint, dispatch, hop. */
  between_nodes_ms: number;
  /** Last node's end to the client's answer: turn end event, gateway's wake-up, the reply. */
  after_last_node_ms: number;
  /** Node runs per turn, and of those that started in the job of the node before (no hop). */
  nodes_per_turn: number;
  /** Mean gap before a node whose predecessor ran on another service (a queue hop). */
  hop_gap_ms: number;
  /** Mean gap before a node that ran on in its predecessor's job. */
  same_job_gap_ms: number;
  /** Each node's mean run (trace record) beside the same handler's in-process time. */
  per_node: { node: string; service: string; queued_ms: number; in_process_ms: number }[];
}

interface NodeRecord {
  turn_id: number;
  node: string;
  service: string;
  start: string;
  end: string;
  latency_ms: number;
}

/**
 * Runs `turns` turns of one session (client and services share this machine's clock) and splits
 * each turn's time along its trace records. Means over the turns, in ms.
 */
export async function turnTimeSplit(
  client: BenchClient,
  turns: number,
  input: TurnBody,
  inProcess: () => Promise<{ nodes: string[]; node_ms: number[] }>,
): Promise<TurnTimeSplit> {
  const sid = await newSession(client);
  const spans: { turn_id: number; sent: number; answered: number }[] = [];
  for (let i = 0; i < turns; i++) {
    const sent = Date.now();
    const { view } = await timedTurn(client, sid, input);
    spans.push({ turn_id: view.turn_id, sent, answered: Date.now() });
  }
  const records = { records: (await client.trace(sid)) as NodeRecord[] };
  const sum = { before: 0, runs: 0, between: 0, after: 0, nodes: 0, hop: 0, hops: 0, same: 0, sames: 0 };
  const byNode = new Map<string, { service: string; queued: number[]; inProcess: number[] }>();
  const slot = (node: string, service = '') => {
    let s = byNode.get(node);
    if (!s) byNode.set(node, (s = { service, queued: [], inProcess: [] }));
    if (service) s.service = service;
    return s;
  };
  for (let i = 0; i < turns; i++) {
    const r = await inProcess();
    r.nodes.forEach((n, j) => slot(n).inProcess.push(r.node_ms[j]));
  }
  for (const t of spans) {
    const mine = records.records.filter((r) => r.turn_id === t.turn_id);
    if (!mine.length) continue;
    sum.before += Date.parse(mine[0].start) - t.sent;
    sum.after += t.answered - Date.parse(mine[mine.length - 1].end);
    sum.nodes += mine.length;
    mine.forEach((r, i) => {
      sum.runs += r.latency_ms;
      slot(r.node, r.service).queued.push(r.latency_ms);
      if (i === 0) return;
      const gap = Date.parse(r.start) - Date.parse(mine[i - 1].end);
      sum.between += gap;
      if (r.service === mine[i - 1].service) {
        sum.same += gap;
        sum.sames += 1;
      } else {
        sum.hop += gap;
        sum.hops += 1;
      }
    });
  }
  const per = (x: number) => round(x / spans.length, 1);
  const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 2);
  return {
    turns: spans.length,
    before_first_node_ms: per(sum.before),
    node_runs_ms: per(sum.runs),
    between_nodes_ms: per(sum.between),
    after_last_node_ms: per(sum.after),
    nodes_per_turn: round(sum.nodes / spans.length, 1),
    hop_gap_ms: round(sum.hop / Math.max(1, sum.hops), 2),
    same_job_gap_ms: round(sum.same / Math.max(1, sum.sames), 2),
    per_node: [...byNode.entries()].map(([node, s]) => ({
      node,
      service: s.service,
      queued_ms: mean(s.queued),
      in_process_ms: mean(s.inProcess),
    })),
  };
}
