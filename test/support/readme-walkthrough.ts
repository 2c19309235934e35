// The README's walk-through as a script: its commands are the fenced `bash` blocks marked with
// WALKTHROUGH_MARK, run in order in one shell (so `SID=…` carries to the next command), and what
// each must print is written under it as comments:
//
//   curl … | jq -r .sql
//   # → SELECT device_id, … FROM sensor_readings
//   #   a second line it prints after the first
//
// Other comments are narration. `…` in an expected line stands for any text.

/** The line right above each fenced block that belongs to the walk-through. */
export const WALKTHROUGH_MARK = '<!-- walkthrough -->';
/** The address the README's commands name: `npm start`'s default gateway. */
export const README_GATEWAY = 'http://127.0.0.1:3000';

export interface WalkStep {
  /** The command lines as the README shows them (a `\` continues a line). */
  command: string;
  /** What it prints, one entry per `# →` or continuation line, in order. */
  expected: string[];
}

/** Every marked `bash` block of the README, cut into commands and what each must print. */
export function walkthroughSteps(markdown: string): WalkStep[] {
  const steps: WalkStep[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== WALKTHROUGH_MARK) continue;
    const mark = i;
    while (lines[i + 1]?.trim() === '') i++; // a formatter puts a blank line after the comment
    if (lines[i + 1]?.trim() !== '```bash') {
      throw new Error(`README line ${mark + 1}: ${WALKTHROUGH_MARK} is not above a bash block`);
    }
    const end = lines.indexOf('```', i + 2);
    steps.push(...blockSteps(lines.slice(i + 2, end)));
    i = end;
  }
  return steps;
}

function blockSteps(block: string[]): WalkStep[] {
  const steps: WalkStep[] = [];
  let command: string[] = [];
  let expected: string[] | null = null;
  for (const line of block) {
    const arrow = /^#\s*→\s?(.*)$/.exec(line);
    const more = /^#\s{3,}(.*)$/.exec(line);
    if (arrow) {
      if (!command.length) throw new Error(`'${line}' expects output of no command`);
      expected = [arrow[1]];
      steps.push({ command: command.join('\n'), expected });
      command = [];
    } else if (more && expected && !command.length) {
      expected.push(more[1]);
    } else if (line.startsWith('#') || !line.trim()) {
      expected = null; // narration, or a blank line, ends what the step prints
    } else {
      expected = null;
      command.push(line);
    }
  }
  // A command whose output the README does not show still runs (it sets a variable, say).
  if (command.length) steps.push({ command: command.join('\n'), expected: [] });
  return steps;
}

const STEP_SEPARATOR = '@@walkthrough-step@@';

/** One bash script running every step against `gatewayUrl`, each step's output after a separator. */
export function walkthroughScript(steps: readonly WalkStep[], gatewayUrl: string): string {
  const body = steps.map((s) => `echo '${STEP_SEPARATOR}'\n${s.command.split(README_GATEWAY).join(gatewayUrl)}`);
  return ['set -uo pipefail', ...body, ''].join('\n');
}

/** The script's output cut back into each step's. */
export function stepOutputs(output: string): string[] {
  return output.split(`${STEP_SEPARATOR}\n`).slice(1);
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The first expected line the output does not show (in order; whitespace does not matter, `…`
 * is any text), or null when it shows them all.
 */
export function firstMissing(output: string, expected: readonly string[]): string | null {
  const text = squeeze(output);
  let from = 0;
  for (const line of expected) {
    let at = from;
    for (const part of squeeze(line)
      .split('…')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const found = text.indexOf(part, at);
      if (found < 0) return line;
      at = found + part.length;
    }
    from = at;
  }
  return null;
}
