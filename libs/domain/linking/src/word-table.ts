/**
 * A lookup table keyed by words from requests and schemas: an object without a prototype, so a
 * word such as `constructor` or `toString` (a column part in a real schema) finds nothing rather
 * than a built-in function.
 */
export function wordTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
