import type { CpuPerTurn } from './cpu-split';
import type { MachineFacts } from './machine';
import type { SessionMemory } from './memory';
import type { Comparison } from './orchestration';
import type { PromptCost } from './prompt-cost';
import type { RoundTrips } from './round-trips';
import type { TurnTimeSplit } from './span-timings';
import type { ScalingPoint } from './scaling';
import type { ProcessMemory } from './stack';
import { fmt, table } from './stats';

export interface BenchReport {
  machine: MachineFacts;
  settings: Record<string, unknown>;
  orchestration: Comparison[];
  floor: {
    worker_processes: number;
    concurrency: number;
    routes: Record<string, { queues: string[]; payload_bytes: number }>;
  };
  round_trips: { happy_turns: number; queued: RoundTrips; floor: RoundTrips };
  turn_time_split: TurnTimeSplit;
  cpu_per_turn: CpuPerTurn;
  peak_rss: ProcessMemory[];
  session_memory: SessionMemory;
  scaling: ScalingPoint[];
  prompt_cost: PromptCost;
  duration_s: number;
  load_avg_end_1m: number;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function renderMarkdown(r: BenchReport): string {
  const m = r.machine;
  const out: string[] = [];
  out.push('# nl2pipeline bench');
  out.push('');
  out.push(
    `Machine: ${m.cores} cores (${m.cpu_model}), ${(m.memory_total_mb / 1024).toFixed(1)} GiB RAM ` +
      `(${(m.memory_free_mb / 1024).toFixed(1)} GiB free at start, load ${m.load_avg_1m}), Node ${m.node}, Redis ${m.redis}, ` +
      `${m.platform}; commit ${m.git_commit}; ${m.measured_at}; whole bench ${r.duration_s.toFixed(0)} s; ` +
      `load average ${r.load_avg_end_1m} at the end.`,
  );
  out.push('');
  out.push(
    'Everything below ran on this one machine in one run: the six services as separate processes, Redis, ' +
      'the load generator, the fake Manager and the scripted LLM share its cores. Figures are as measured.',
  );

  out.push('');
  out.push('## 1. Orchestration overhead (scripted LLM and fake Manager answer instantly)');
  out.push('');
  out.push(
    'Turn latency at the client (POST turn with `wait: true` until it answers `need_confirm`), queued = gateway + ' +
      'BullMQ + Redis + six processes; in-process = the same node handlers and `GRAPH` edges called directly ' +
      '(same fake LLM and Manager over HTTP, no gateway, queues, Redis or checkpoints). A hop is one node run ' +
      '(one queue job when queued).',
  );
  out.push('');
  out.push(
    table(
      [
        'path',
        'sessions',
        'turns',
        'errors',
        'queued p50 / p95 / p99 ms',
        'floor p50 / p95 / p99 ms',
        '**queued ÷ floor p50** (p95)',
        'in-process p50 / p95 / p99 ms',
        'queued ÷ in-process p50 (p95, p99)',
        'nodes',
        'overhead per hop (p50, mean) ms',
        'turns/s queued, in-process; floor chains/s',
        '**turns/s ÷ floor chains/s**',
        'CPU queued: bench / others %',
      ],
      r.orchestration.map((c) => [
        c.path,
        String(c.concurrency),
        String(c.queued.turns),
        String(c.queued.errors + c.in_process.errors),
        `${fmt(c.queued.latency_ms.p50)} / ${fmt(c.queued.latency_ms.p95)} / ${fmt(c.queued.latency_ms.p99)}`,
        `${fmt(c.floor.latency_ms.p50)} / ${fmt(c.floor.latency_ms.p95)} / ${fmt(c.floor.latency_ms.p99)}`,
        `**${fmt(c.floor_ratio_p50, 2)}×** (${fmt(c.floor_ratio_p95, 2)}×)`,
        `${fmt(c.in_process.latency_ms.p50)} / ${fmt(c.in_process.latency_ms.p95)} / ${fmt(c.in_process.latency_ms.p99)}`,
        `${fmt(c.ratio_p50)}× (${fmt(c.ratio_p95)}×, ${fmt(c.ratio_p99)}×)`,
        String(c.queued.nodes_per_turn),
        `${fmt(c.overhead_per_hop_ms_p50, 2)}, ${fmt(c.overhead_per_hop_ms_mean, 2)}`,
        `${fmt(c.queued.turns_per_s)}, ${fmt(c.in_process.turns_per_s)}; ${fmt(c.floor.turns_per_s)}`,
        `**${(c.floor_throughput_share * 100).toFixed(0)} %**`,
        `${fmt(c.queued.cpu.bench_pct, 0)} / ${fmt(c.queued.cpu.others_pct, 0)}`,
      ]),
    ),
  );

  const fr = r.floor;
  out.push('');
  out.push(
    `Floor = a raw BullMQ chain: ${fr.worker_processes} worker processes (one per workflow queue, as the services are), ` +
      `concurrency ${fr.concurrency} each, every job handing a payload of the envelope's size on to the next queue ` +
      `of the path's route (${Object.entries(fr.routes)
        .map(([p, x]) => `${p}: ${x.queues.length} hops, ${(x.payload_bytes / 1024).toFixed(1)} KiB`)
        .join('; ')}), ` +
      'first job added and last completion heard (QueueEvents) by the load generator; no HTTP, checkpoint, event or trace.',
  );
  const t = r.round_trips;
  out.push('');
  out.push(
    `Redis round trips per node run (queued, ${t.happy_turns} happy-path turns at 1 session, \`MONITOR\`; ` +
      'a MULTI…EXEC block or a script counts once; every client of this Redis counts) beside the floor per hop:',
  );
  out.push('');
  const commands = [...new Set([...t.queued.by_command, ...t.floor.by_command].map((c) => c.command))];
  const perUnit = (x: RoundTrips, command: string) => x.by_command.find((c) => c.command === command)?.per_unit ?? 0;
  out.push(
    table(
      ['round trips', 'per node run (queued)', 'per hop (floor)'],
      [
        ['**all**', `**${fmt(t.queued.round_trips_per_unit)}**`, `**${fmt(t.floor.round_trips_per_unit)}**`],
        ...commands.map((c) => [c, fmt(perUnit(t.queued, c)), fmt(perUnit(t.floor, c))]),
        ['(commands inside scripts)', fmt(t.queued.script_commands_per_unit), fmt(t.floor.script_commands_per_unit)],
      ],
    ),
  );
  const sp = r.turn_time_split;
  out.push('');
  out.push(
    `Where a happy-path turn's time goes at 1 session (mean of ${sp.turns} turns, from the trace log's node records; ` +
      `client and services share the clock), ${fmt(sp.nodes_per_turn)} node runs per turn:`,
  );
  out.push('');
  out.push(
    table(
      ['part', 'ms per turn'],
      [
        [
          'client POST → first node starts (HTTP, gateway, pre_turn, checkpoint, first hop)',
          fmt(sp.before_first_node_ms),
        ],
        ['node runs (the handler, with its calls to the fake LLM and Manager)', fmt(sp.node_runs_ms)],
        [
          'between nodes (checkpoint write with trace and events, dispatch, queue hop, checkpoint read)',
          fmt(sp.between_nodes_ms),
        ],
        ['last node ends → client has the answer (turn_end event, gateway wakes, reply)', fmt(sp.after_last_node_ms)],
        ['mean gap before a node on another service (a queue hop)', fmt(sp.hop_gap_ms, 2)],
        ["mean gap before a node run on in its predecessor's job (no hop)", fmt(sp.same_job_gap_ms, 2)],
      ],
    ),
  );
  out.push('');
  out.push(
    "Each node's run (its trace record: from its start event to its result) beside the same handler in-process, ms:",
  );
  out.push('');
  out.push(
    table(
      ['node', 'service', 'queued ms', 'in-process ms'],
      sp.per_node.map((n) => [n.node, n.service, fmt(n.queued_ms, 2), fmt(n.in_process_ms, 2)]),
    ),
  );
  out.push('');
  const c = r.cpu_per_turn;
  out.push('');
  out.push(
    `CPU per happy-path turn, by process (${c.sessions} sessions, ${c.turns_per_round} turns a round, median of ` +
      `${c.rounds} rounds; /proc user + system time): queued beside a floor chain of the same route and an ` +
      'in-process turn. "load generator" is the bench process: the client, the fake LLM and Manager, and for ' +
      'in-process the handlers themselves. Once every core is busy, turns/s ÷ floor chains/s cannot exceed ' +
      'floor CPU ÷ queued CPU.',
  );
  out.push('');
  const processes = [
    ...new Set([
      ...Object.keys(c.queued.per_unit_ms),
      ...Object.keys(c.floor.per_unit_ms),
      ...Object.keys(c.in_process.per_unit_ms),
    ]),
  ];
  const cell = (x: CpuPerTurn['queued'], name: string) => (name in x.per_unit_ms ? fmt(x.per_unit_ms[name], 2) : '–');
  out.push(
    table(
      ['process', 'queued ms per turn', 'floor ms per chain', 'in-process ms per turn'],
      [
        ...processes.map((p) => [p, cell(c.queued, p), cell(c.floor, p), cell(c.in_process, p)]),
        [
          '**total**',
          `**${fmt(c.queued.total_per_unit_ms, 2)}**`,
          `**${fmt(c.floor.total_per_unit_ms, 2)}**`,
          `**${fmt(c.in_process.total_per_unit_ms, 2)}**`,
        ],
        [
          'floor CPU ÷ this (ceiling of turns/s ÷ floor chains/s when CPU-bound)',
          `${fmt((100 * c.floor.total_per_unit_ms) / c.queued.total_per_unit_ms, 0)} %`,
          '100 %',
          `${fmt((100 * c.floor.total_per_unit_ms) / c.in_process.total_per_unit_ms, 0)} %`,
        ],
      ],
    ),
  );
  out.push('');
  out.push(
    "CPU is the share of all cores during the series: the bench's own processes (services, Redis, the process running " +
      'the fakes, the load generator and the in-process graph) / everything else on the machine. The in-process ' +
      'graph runs on one Node thread, beside the fakes; the queued services spread over the cores.',
  );
  out.push('');
  out.push('## 2. LLM worker scaling (every LLM call takes 300 ms)');
  out.push('');
  out.push(
    'Closed loop: each session posts its next turn (happy path: one router and one draft call) as soon as the last ' +
      'one ends; completed turns counted in a fixed window after a warm-up. Ideal = drafter processes × ' +
      '`WORKER_CONCURRENCY` / 0.3 s (every drafter slot busy with nothing but the LLM call). `router-llm` runs at ' +
      'concurrency 64 here so it is not the bottleneck.',
  );
  const ceiling = Math.max(...r.orchestration.filter((c) => c.path === 'happy').map((c) => c.queued.turns_per_s));
  out.push('');
  out.push(
    `For scale: with an instant LLM this machine completed at most ${fmt(ceiling)} happy-path turns/s (section 1), ` +
      'which bounds every row below whatever the ideal says.',
  );
  out.push('');
  out.push(
    table(
      [
        'sql-drafter processes × concurrency',
        'sessions',
        'window s',
        'turns',
        'turns/s',
        'ideal turns/s',
        'efficiency vs ideal',
        'speed-up vs 1×1',
        'turn p50 / p95 ms',
        'errors',
        'CPU: bench / others %',
      ],
      r.scaling.map((s) => [
        `${s.processes} × ${s.concurrency}`,
        String(s.sessions),
        String(s.window_s),
        String(s.completed),
        fmt(s.turns_per_s, 2),
        fmt(s.ideal_turns_per_s, 2),
        `${(s.efficiency_vs_ideal * 100).toFixed(0)} %`,
        `${fmt(s.speedup_vs_single_slot, 2)}×`,
        `${fmt(s.latency_ms.p50)} / ${fmt(s.latency_ms.p95)}`,
        String(s.errors),
        `${fmt(s.cpu.bench_pct, 0)} / ${fmt(s.cpu.others_pct, 0)}`,
      ]),
    ),
  );

  const p = r.prompt_cost;
  out.push('');
  out.push('## 3. Prompt cost (full veloFlux catalogs, real tokenizer)');
  out.push('');
  out.push(
    `Catalog from \`shared/manager-api/examples\`: ${p.functions} functions, ${p.syntax_rules} syntax rules (full tree), ` +
      `a synthesized ${p.stream_columns}-column stream. Tokens counted with gpt-tokenizer (o200k_base = GPT-4o family, ` +
      'cl100k_base = GPT-4); chat prompts include the chat framing.',
  );
  out.push('');
  out.push(
    table(
      ['what', 'chars', 'tokens o200k', 'tokens cl100k'],
      [...p.prompts, ...p.verbatim].map((row) => [
        row.what,
        String(row.tokens.chars),
        String(row.tokens.o200k),
        String(row.tokens.cl100k),
      ]),
    ),
  );
  out.push('');
  out.push(
    `Sending the catalogs verbatim would make the draft prompt ${fmt(p.verbatim_over_digest)}× as large (o200k).`,
  );

  const s = r.session_memory;
  out.push('');
  out.push('## 4. Memory');
  out.push('');
  out.push(
    `Redis bytes per session after a ${s.turns_per_session}-turn conversation (request, feedback, confirm, …), mean of ` +
      `${s.sessions} sessions, \`MEMORY USAGE … SAMPLES 0\`${s.failed_turns ? ` (${s.failed_turns} turns ended unexpectedly)` : ''}:`,
  );
  out.push('');
  out.push(
    table(
      ['key', 'bytes per session'],
      [
        ['checkpoint (envelope)', kb(s.checkpoint_bytes)],
        ['event stream', kb(s.events_bytes)],
        ['trace log', kb(s.trace_bytes)],
        ['**kept for the session TTL**', `**${kb(s.durable_bytes)}**`],
        [`BullMQ jobs of the session still in Redis (${s.retained_jobs} jobs)`, kb(s.retained_jobs_bytes)],
        ['**total right after the conversation**', `**${kb(s.total_bytes)}**`],
        ['INFO used_memory delta / session (all keys, allocator overhead)', kb(s.used_memory_delta_per_session)],
      ],
    ),
  );
  out.push('');
  out.push('Peak RSS (VmHWM) per service process, read after the 64-session runs of section 1:');
  out.push('');
  out.push(
    table(
      ['service', 'peak RSS MiB', 'RSS now MiB'],
      r.peak_rss.map((x) => [x.service, fmt(x.vm_hwm_mb), fmt(x.vm_rss_mb)]),
    ),
  );
  out.push('');
  return out.join('\n');
}
