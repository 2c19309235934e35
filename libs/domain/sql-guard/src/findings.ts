/** One message of a rule, and where in the statement it was found. */
interface Finding {
  message: string;
  /** Index of the token the finding is about; absent for findings about the query as a whole. */
  at?: number;
}

/**
 * What the rules found, each message once. Read back in the order of the query's text (findings
 * about the whole query last), whatever order the rules ran in, so a person or a model reading the
 * list walks the query from left to right.
 */
export class Findings {
  private readonly errorList: Finding[] = [];
  private readonly warningList: Finding[] = [];
  private readonly seen = new Set<string>();

  error(message: string, at?: number): void {
    this.add(this.errorList, 'e', message, at);
  }

  warn(message: string, at?: number): void {
    this.add(this.warningList, 'w', message, at);
  }

  get errors(): string[] {
    return inTextOrder(this.errorList);
  }

  get warnings(): string[] {
    return inTextOrder(this.warningList);
  }

  private add(list: Finding[], kind: string, message: string, at: number | undefined): void {
    const key = `${kind}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    list.push({ message, at });
  }
}

function inTextOrder(list: readonly Finding[]): string[] {
  // Array.prototype.sort is stable: findings at one token keep the order they were reported in.
  return [...list]
    .sort((a, b) => (a.at ?? Number.POSITIVE_INFINITY) - (b.at ?? Number.POSITIVE_INFINITY))
    .map((f) => f.message);
}
