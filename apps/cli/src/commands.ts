import { TargetKind } from '@nl2p/envelope';
import { parseExamplesArgs, type ExamplesAction } from './examples';
import { parseDefinition, parseGlossaryArgs, type GlossaryAction } from './glossary';

export const SHOW_WHAT = ['sql', 'explain', 'pipeline', 'preview'] as const;
export type ShowWhat = (typeof SHOW_WHAT)[number];
/** The engines a session can target: the envelope's list, the one the gateway validates against. */
export const TARGETS = TargetKind.options;

export type Command =
  | { name: 'help' }
  | { name: 'streams' }
  /** `stream`: undefined shows the remembered stream, null forgets it. */
  | { name: 'use'; stream: string | null | undefined }
  | { name: 'describe'; stream: string }
  | { name: 'show'; what: ShowWhat }
  | { name: 'trace'; turn: number | 'last' | 'all' }
  | { name: 'target'; target: string | undefined }
  | { name: 'new' }
  | { name: 'session'; id: string | undefined }
  /** The tenant's glossary: /glossary [list|export|import], /define, /forget. */
  | { name: 'glossary'; action: GlossaryAction }
  /** The tenant's confirmed questions: /examples [list|forget <id>]. */
  | { name: 'examples'; action: ExamplesAction }
  | { name: 'exit' };

export type Parsed = { ok: true; command: Command } | { ok: false; hint: string };

interface Spec {
  usage: string;
  help: string;
  /** `rest` is the text after the command's name as typed (a definition keeps its spaces). */
  parse: (args: string[], rest: string) => Command | string;
}

const SESSION_ID = /^[0-9a-f]{32}$/;

const noArgs =
  (command: Command, usage: string) =>
  (args: string[]): Command | string =>
    args.length ? `${usage} takes no arguments` : command;

/** Every slash command: its usage line, its help text and its argument check. */
export const COMMANDS: Record<string, Spec> = {
  help: { usage: '/help', help: 'this list', parse: noArgs({ name: 'help' }, '/help') },
  streams: {
    usage: '/streams',
    help: "the engine's streams and their columns",
    parse: noArgs({ name: 'streams' }, '/streams'),
  },
  use: {
    usage: '/use <stream>',
    help: 'send this stream with every new request (/use shows it, /use - forgets it)',
    parse: (args) => {
      if (args.length > 1) return 'usage: /use <stream>  (one stream name; /use - forgets it)';
      if (!args.length) return { name: 'use', stream: undefined };
      return { name: 'use', stream: args[0] === '-' ? null : args[0] };
    },
  },
  describe: {
    usage: '/describe <stream>',
    help: "a stream's columns and types",
    parse: (args) => (args.length === 1 ? { name: 'describe', stream: args[0] } : 'usage: /describe <stream>'),
  },
  show: {
    usage: '/show sql|explain|pipeline|preview',
    help: "the session's SQL, the engine's plan, the pipeline request JSON, or the preview rows",
    parse: (args) => {
      const what = args[0]?.toLowerCase();
      if (args.length !== 1 || !SHOW_WHAT.includes(what as ShowWhat))
        return 'usage: /show sql|explain|pipeline|preview';
      return { name: 'show', what: what as ShowWhat };
    },
  },
  trace: {
    usage: '/trace [turn|all]',
    help: 'the per-node trace of the last turn (or of turn N, or all) as a table',
    parse: (args) => {
      if (!args.length) return { name: 'trace', turn: 'last' };
      if (args.length === 1 && args[0] === 'all') return { name: 'trace', turn: 'all' };
      if (args.length === 1 && /^\d{1,9}$/.test(args[0])) return { name: 'trace', turn: Number(args[0]) };
      return 'usage: /trace [turn number|all]';
    },
  },
  target: {
    usage: '/target [veloflux|duckdb|postgres]',
    help: "the session's engine; with a name, a new session on that engine",
    parse: (args) => {
      if (!args.length) return { name: 'target', target: undefined };
      const t = args[0]?.toLowerCase();
      if (args.length !== 1 || !TARGETS.includes(t as (typeof TARGETS)[number])) {
        return `usage: /target [${TARGETS.join('|')}]`;
      }
      return { name: 'target', target: t };
    },
  },
  new: { usage: '/new', help: 'start a new session', parse: noArgs({ name: 'new' }, '/new') },
  session: {
    usage: '/session [id]',
    help: "print this session's id; with an id, continue that session",
    parse: (args) => {
      if (!args.length) return { name: 'session', id: undefined };
      if (args.length === 1 && SESSION_ID.test(args[0])) return { name: 'session', id: args[0] };
      return 'usage: /session [id]  (an id is 32 lowercase hex characters)';
    },
  },
  glossary: {
    usage: '/glossary [export [file] | import <file>]',
    help: "your glossary's terms; or write it to a YAML file (stdout without one), or store a file's terms",
    parse: (args) => {
      const action = parseGlossaryArgs(args);
      return typeof action === 'string' ? action : { name: 'glossary', action };
    },
  },
  define: {
    usage: '/define <term> = table: …, expr: …',
    help: 'teach a term for every session (fields of the glossary file: table, column, value, expr, condition)',
    parse: (_args, rest) => {
      const parsed = parseDefinition(rest);
      return typeof parsed === 'string' ? parsed : { name: 'glossary', action: { name: 'define', ...parsed } };
    },
  },
  forget: {
    usage: '/forget <term>',
    help: 'remove a term from the glossary',
    parse: (_args, rest) =>
      rest.trim() ? { name: 'glossary', action: { name: 'forget', term: rest.trim() } } : 'usage: /forget <term>',
  },
  examples: {
    usage: '/examples [forget <id>]',
    help: 'your confirmed questions (shown beside close requests, reused with new values); forget one by its id',
    parse: (args) => {
      const action = parseExamplesArgs(args);
      return typeof action === 'string' ? action : { name: 'examples', action };
    },
  },
  exit: { usage: '/exit', help: 'leave (Ctrl-D does too)', parse: noArgs({ name: 'exit' }, '/exit') },
};

const ALIASES: Record<string, string> = { quit: 'exit', q: 'exit', h: 'help', '?': 'help' };

/** Edit distance with transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      // A swap of two neighbours (`/shwo`) is one typo.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** Parses a `/command args…` line into a command, or a one-line hint saying what is wrong. */
export function parseCommand(line: string): Parsed {
  const body = line.trim().slice(1);
  const [head, ...args] = body.split(/\s+/).filter(Boolean);
  const raw = (head ?? '').toLowerCase();
  const name = ALIASES[raw] ?? raw;
  const spec = COMMANDS[name];
  if (!spec) {
    if (!raw) return { ok: false, hint: 'a command follows the slash: /help lists them' };
    const near = Object.keys(COMMANDS).find((c) => distance(c, raw) <= (raw.length > 4 ? 2 : 1));
    return {
      ok: false,
      hint: `unknown command /${raw}${near ? `: did you mean /${near}?` : ''} (/help lists the commands)`,
    };
  }
  const parsed = spec.parse(args, body.slice((head ?? '').length));
  return typeof parsed === 'string' ? { ok: false, hint: parsed } : { ok: true, command: parsed };
}

export function helpText(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return [
    'Type a request in plain words to get a validated pipeline; answer questions at the prompt.',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.help}`),
    'Ctrl-C cancels a running turn, Ctrl-D leaves; arrow keys walk the history.',
  ].join('\n');
}
