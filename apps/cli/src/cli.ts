import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, GatewayApi } from './api';
import { EXIT, runAsk } from './ask';
import { TARGETS } from './commands';
import { parseExamplesArgs, runExamplesAction } from './examples';
import { parseDefinition, parseGlossaryArgs, runGlossaryAction, type GlossaryAction } from './glossary';
import { Repl } from './repl';
import { colourEnabled, makeStyle } from './style';

export const DEFAULT_URL = 'http://127.0.0.1:3000';
const DEFAULT_TIMEOUT_S = 600;

export const USAGE = `nl2pipeline: natural language to validated streaming SQL pipelines, through the gateway.

Usage:
  nl2pipeline [options]                     interactive REPL (/help inside lists its commands)
  nl2pipeline ask "<request>" [options]     one request; prints the pipeline request JSON
                                            (SQL targets: the SQL and preview rows) and exits
  nl2pipeline glossary [list]               your glossary's terms (the API key's tenant)
  nl2pipeline glossary export [file]        the glossary as a YAML file (stdout without a file)
  nl2pipeline glossary import <file>        store every term of a glossary file (all or none)
  nl2pipeline glossary define "<term> = table: <table>, expr: <a * b>"
                                            teach a term (fields: table, column, value, expr, condition)
  nl2pipeline glossary forget <term>        remove a term
  nl2pipeline examples [list]               your confirmed questions, each with its id
  nl2pipeline examples forget <id>          forget one (no longer shown beside requests nor reused)

Options:
  --url <url>          gateway URL (env NL2P_URL, default ${DEFAULT_URL})
  --api-key <key>      sent as "Authorization: Bearer <key>" (env NL2P_API_KEY)
  --session <id>       continue this session
  --target <engine>    engine of a new session: ${TARGETS.join(', ')} (default: the gateway's)
  --sources all        a new session over all the gateway's SQL sources: a question may join
                       tables of several (each part runs on its own source, joined in DuckDB)
  -s, --stream <name>  the stream to read from (REPL: sent with every request, as /use)
  --no-color           no colours (also NO_COLOR=1; colours are only ever used on a terminal)
  -h, --help           this help
  --version            the version

ask only:
  -y, --yes            accept the validated draft (without it, a draft waiting for
                       confirmation exits 3)
  --json               print the whole session view as JSON (whatever the outcome)
  --timeout <seconds>  longest wait for the turn (default ${DEFAULT_TIMEOUT_S})
  -q, --quiet          no progress on stderr (default when stderr is not a terminal)
  -v, --verbose        progress and the streamed draft on stderr even when it is not a terminal

Exit codes (ask): 0 done, 1 error (gateway down, HTTP error, failed turn), 2 bad usage,
3 the workflow needs a person (a stream, an answer, a confirmation), 130 Ctrl-C.`;

export interface CliIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

function version(): string {
  for (const rel of ['../../../../package.json', '../../../package.json']) {
    const file = path.resolve(__dirname, rel);
    try {
      if (existsSync(file)) return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version);
    } catch {
      // try the next candidate
    }
  }
  return 'unknown';
}

function usageError(message: string): CliError {
  return new CliError(`${message} (nl2pipeline --help shows the usage)`, EXIT.usage);
}

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`'${url}' is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usageError(`'${url}' is not an http(s) URL`);
  return url;
}

/** Parses the command line and runs the REPL or one-shot mode; resolves to the exit code. */
export async function cli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    // parseArgs names the bad option in its (long) message; keep the first sentence.
    const message = err instanceof Error ? err.message : String(err);
    throw usageError(message.split(/\.\s|\n/)[0].replace(/^\w/, (c) => c.toLowerCase()));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (values.version) {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }

  const flags = { noColor: values['no-color'] };
  const outStyle = makeStyle(colourEnabled(io.stdout, io.env, flags));
  const errStyle = makeStyle(colourEnabled(io.stderr, io.env, flags));
  const url = checkUrl(values.url ?? (io.env.NL2P_URL || DEFAULT_URL));
  const api = new GatewayApi(url, values['api-key'] ?? (io.env.NL2P_API_KEY || undefined));
  const session = values.session;
  if (session !== undefined && !/^[0-9a-f]{32}$/.test(session)) {
    throw usageError(`--session takes a session id (32 lowercase hex characters), not '${session}'`);
  }
  const target = values.target?.toLowerCase();
  if (target !== undefined && !TARGETS.includes(target as (typeof TARGETS)[number])) {
    throw usageError(`--target must be one of ${TARGETS.join(', ')}`);
  }
  if (target && session) throw usageError('--target chooses the engine of a new session; it cannot go with --session');
  const sources = values.sources;
  if (sources !== undefined && sources !== 'all') throw usageError(`--sources takes 'all', not '${sources}'`);
  if (sources && session) throw usageError('--sources all makes a new session; it cannot go with --session');

  const [command, ...rest] = positionals;
  if (command === 'ask') {
    const request = rest.join(' ').trim();
    if (!request) throw usageError('ask needs a request: nl2pipeline ask "<request>"');
    const timeoutS = values.timeout === undefined ? DEFAULT_TIMEOUT_S : Number(values.timeout);
    if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw usageError('--timeout takes a number of seconds');
    if (values.quiet && values.verbose) throw usageError('--quiet and --verbose exclude each other');
    return runAsk({
      api,
      request,
      stream: values.stream,
      yes: !!values.yes,
      json: !!values.json,
      sessionId: session,
      target,
      sources,
      timeoutMs: timeoutS * 1000,
      progress: values.verbose ? true : values.quiet ? false : !!io.stderr.isTTY,
      stdout: io.stdout,
      stderr: io.stderr,
      outStyle,
      errStyle,
    });
  }
  if (command === 'glossary') {
    const action = glossaryAction(rest);
    if (typeof action === 'string') throw usageError(action.replace(/^usage: \//, 'usage: nl2pipeline '));
    const done = await runGlossaryAction(api, action, outStyle);
    if (done.out) io.stdout.write(`${done.out}\n`);
    if (done.note) io.stderr.write(`${done.note}\n`);
    return EXIT.ok;
  }
  if (command === 'examples') {
    const action = parseExamplesArgs(rest);
    if (typeof action === 'string') throw usageError(action.replace(/^usage: \//, 'usage: nl2pipeline '));
    const done = await runExamplesAction(api, action, outStyle);
    if (done.out) io.stdout.write(`${done.out}\n`);
    if (done.note) io.stderr.write(`${done.note}\n`);
    return EXIT.ok;
  }
  if (command === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (command !== undefined && command !== 'repl') {
    throw usageError(
      `unknown command '${command}'; for a one-shot request: nl2pipeline ask "${positionals.join(' ')}"`,
    );
  }
  if (rest.length) throw usageError(`unexpected argument '${rest[0]}'`);
  for (const only of ['yes', 'json', 'timeout', 'quiet', 'verbose'] as const) {
    if (values[only] !== undefined) throw usageError(`--${only} is an option of ask`);
  }

  const home = io.env.HOME || homedir();
  const historyFile = io.env.NL2P_HISTORY_FILE || (home ? path.join(home, '.nl2pipeline_history') : undefined);
  return new Repl({
    api,
    sessionId: session,
    target,
    sources,
    stream: values.stream,
    input: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    outStyle,
    errStyle,
    historyFile,
  }).run();
}

/** `nl2pipeline glossary <verb> …` as the REPL's /glossary, /define or /forget would read it. */
function glossaryAction(args: string[]): GlossaryAction | string {
  const [verb, ...rest] = args;
  if (verb === 'define') {
    const parsed = parseDefinition(rest.join(' '));
    return typeof parsed === 'string' ? parsed : { name: 'define', ...parsed };
  }
  if (verb === 'forget') {
    return rest.length ? { name: 'forget', term: rest.join(' ') } : 'usage: /glossary forget <term>';
  }
  return parseGlossaryArgs(args);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      session: { type: 'string' },
      target: { type: 'string' },
      sources: { type: 'string' },
      stream: { type: 'string', short: 's' },
      'no-color': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
      json: { type: 'boolean' },
      timeout: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      verbose: { type: 'boolean', short: 'v' },
    },
  });
}
