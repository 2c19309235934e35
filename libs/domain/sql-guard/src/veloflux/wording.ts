/** Shared wording of the veloFlux rules' messages. */

export function quoted(name: string): string {
  return `'${name}'`;
}

/** A correct call of a window, to show in a message. */
export function windowExample(window: string): string {
  switch (window) {
    case 'slidingwindow':
      return "slidingwindow('ss', 10)";
    case 'countwindow':
      return 'countwindow(100)';
    case 'statewindow':
      return 'statewindow(a > 0, b = 1)';
    default:
      return "tumblingwindow('ss', 10)";
  }
}
