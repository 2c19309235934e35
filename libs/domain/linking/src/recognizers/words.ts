/** Little words more than one recognizer steps over. */
/** The articles proper: what may stand between a word and the phrase it belongs to. */
export const BARE_ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);
export const ARTICLES: ReadonlySet<string> = new Set([...BARE_ARTICLES, 'their', 'its']);
