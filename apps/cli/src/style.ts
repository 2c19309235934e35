/** Colours for one output stream: real ANSI codes on a terminal, plain text everywhere else. */
export interface Style {
  readonly enabled: boolean;
  bold: (s: string) => string;
  dim: (s: string) => string;
  red: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
  cyan: (s: string) => string;
  magenta: (s: string) => string;
}

/**
 * Colours only on a TTY; `NO_COLOR` (any non-empty value, no-color.org) and `TERM=dumb` turn them
 * off, `--no-color` too; `FORCE_COLOR` (non-empty, not `0`) turns them on anywhere.
 */
export function colourEnabled(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  flags: { noColor?: boolean } = {},
): boolean {
  if (flags.noColor) return false;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

const code = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: enabled ? code(1, 22) : plain,
    dim: enabled ? code(2, 22) : plain,
    red: enabled ? code(31, 39) : plain,
    green: enabled ? code(32, 39) : plain,
    yellow: enabled ? code(33, 39) : plain,
    cyan: enabled ? code(36, 39) : plain,
    magenta: enabled ? code(35, 39) : plain,
  };
}

/** Removes ANSI escape sequences (for width computations). */
export function stripAnsi(s: string): string {
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}
