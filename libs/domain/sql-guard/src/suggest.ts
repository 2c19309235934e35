/** Levenshtein distance; inputs are identifiers, so the quadratic cost does not matter. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Candidates that look like a misspelling of `name` (case-insensitive): small edit distance, or one
 * contains the other (`temp` → `temperature`, `avg_temperature` → `avg`). Best first, at most `max`.
 */
export function closeMatches(name: string, candidates: Iterable<string>, max = 3): string[] {
  const target = name.toLowerCase();
  const scored: { candidate: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    const lower = candidate.toLowerCase();
    const distance = editDistance(target, lower);
    const limit = Math.max(1, Math.floor(Math.max(target.length, lower.length) / 3));
    const contains = target.length >= 3 && lower.length >= 3 && (lower.includes(target) || target.includes(lower));
    if (distance <= limit) scored.push({ candidate, score: distance });
    else if (contains) scored.push({ candidate, score: limit + Math.abs(lower.length - target.length) });
  }
  scored.sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate));
  return scored.slice(0, max).map((s) => s.candidate);
}

/** `a, b, c` with the tail cut after `max` names (`… and 12 more`), so messages stay readable. */
export function listNames(names: readonly string[], max = 40): string {
  if (names.length === 0) return '(none)';
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} … and ${names.length - max} more`;
}
