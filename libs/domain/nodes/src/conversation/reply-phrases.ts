// How people phrase a reply to a question: general English, no dataset's words.

const CANCEL =
  /^\s*(never\s*mind|nevermind|cancel|forget (it|that|about it)|stop|abort|drop it|no thanks|nothing|skip( it)?)\s*[.!]*\s*$/i;

/** "never mind", "cancel", "forget it": the person drops the request. */
export function isCancel(text: string): boolean {
  return CANCEL.test(text);
}

const ORDINALS: Record<string, number> = { first: 0, second: 1, third: 2, fourth: 3, fifth: 4, sixth: 5 };

/**
 * The 0-based choice a reply picks among `count` offered: `2`, `#2`, `option 2`, `the second
 * one`, `the last`. Null when the reply picks none (or a number outside the list).
 */
export function choiceIndex(text: string, count: number): number | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  const numbered = /^(?:#|no\.?\s*|number\s+|option\s+|choice\s+)?(\d{1,2})$/.exec(t);
  if (numbered) {
    const n = Number(numbered[1]) - 1;
    return n >= 0 && n < count ? n : null;
  }
  const ordinal = /^(?:the\s+)?(first|second|third|fourth|fifth|sixth|last)(?:\s+one)?$/.exec(t);
  if (!ordinal?.[1]) return null;
  const n = ordinal[1] === 'last' ? count - 1 : (ORDINALS[ordinal[1]] ?? -1);
  return n >= 0 && n < count ? n : null;
}

const DEFINES =
  /^\s*(?:by\s+)?["']?([\p{L}][\p{L}\p{N} _-]{0,40}?)["']?\s+(?:is|are|means|=|:=|stands for|is defined as|should be)\s+(.+?)\s*[.!]?\s*$/iu;

/** `revenue is quantity times unit price` → the word and what it is; null when the reply defines nothing. */
export function splitDefinition(text: string): { word: string; body: string } | null {
  const m = DEFINES.exec(text);
  if (!m?.[1] || !m[2]) return null;
  const word = m[1].trim().toLowerCase();
  // "it is …", "that is …": a pointer to the word asked about, not a definition of a new one.
  if (/^(it|that|this|they|those|these|i|mine)$/.test(word)) return null;
  return { word, body: stripLeadIn(m[2]) };
}

const LEAD_IN =
  /^\s*(?:(?:no,?\s*)?(?:i\s+)?(?:meant|mean|want(?:ed)?|wanted to say)|use|take|try|(?:it|that|this)\s+(?:is|was|means)|it's|that's|by that i mean|please use)\s+/i;
const TRAILER = /\s+(?:column|field|table|instead|please|then)\s*$/i;

/** The name in a reply: without "I meant", "use", "the", "column", "instead", punctuation. */
export function stripLeadIn(text: string): string {
  let t = text.trim().replace(/[.!?]+$/, '');
  for (let k = 0; k < 3; k++) {
    const before = t;
    t = t
      .replace(LEAD_IN, '')
      .replace(/^(?:the|a|an)\s+/i, '')
      .replace(TRAILER, '')
      .trim();
    if (t === before) break;
  }
  return t;
}
