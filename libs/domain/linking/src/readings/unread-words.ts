import { doubt } from './lookup';
import type { ReadingRule } from './state';

/** A word that changes the answer and that no link read (`weekends`, `not`) is a doubt: the plan would answer another question. */
export const unreadWords: ReadingRule = {
  name: 'unread-words',
  apply(s) {
    for (const u of s.links.unread) doubt(s, `"${u.text}" was not understood`);
  },
};
