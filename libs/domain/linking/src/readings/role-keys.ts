import { joinEdges } from '@nl2p/query-plan';
import { lemmaOf } from '../lexical/lemmas';
import { relationBetween } from '../lexical/related';
import { identifierWords, singular } from '../text';
import { keyedTables } from './join-key';
import type { ReadingState } from './state';

/**
 * Role keys: a foreign key named for the role the referenced row plays (`Destroyed_by_Employee_ID`
 * and `Destruction_Authorised_by_Employee_ID` both → Employees, `reported_by_staff_id` and
 * `assigned_to_staff_id` → staff). When two tables join on more than one key, the shortest path is
 * no answer: the role word said in the request (`destroyed`, `authorised the destruction`,
 * `reported by`) picks the key whose name says it. What is left of a key's name once the
 * referenced table's words, the key's own words and connecting words are taken away is its role;
 * a request word meets it by dictionary form or by a close WordNet relation (`destruction` is
 * derived from `destroy`), never by a list of domain words.
 */

/** One key between two tables, as `join` writes it: `from.left = to.right`. */
export interface KeyPair {
  left: string;
  right: string;
}

/** The verdict on the keys between two tables for this request. */
export type RoleChoice =
  | { kind: 'one' }
  | { kind: 'said'; pair: KeyPair; role: string; word: string }
  | { kind: 'unsaid'; pairs: KeyPair[] }
  | { kind: 'several'; said: { pair: KeyPair; word: string }[] };

/** Words that connect a role to its key in a name (`reported_by_staff_id`, `assigned_to`). */
const CONNECTING = new Set(['by', 'to', 'of', 'for', 'the', 'id', 'ids', 'code', 'no', 'num', 'key', 'fk']);

/** The words of a key column's name that say the role its row plays for the other table. */
export function roleWords(column: string, referenced: string, referencedKey: string): string[] {
  const known = new Set([...identifierWords(referenced), ...identifierWords(referencedKey)].map((w) => singular(w)));
  return identifierWords(column).filter((w) => !CONNECTING.has(w) && !known.has(singular(w)) && /^[a-z]{3,}$/.test(w));
}

/** Every single-column key between `from` and `to`, written from `from`'s side. */
export function keysBetween(s: ReadingState, from: string, to: string): KeyPair[] {
  const pairs: KeyPair[] = [];
  for (const e of joinEdges(keyedTables(s.schema))) {
    if (e.fromColumns.length !== 1 || e.toColumns.length !== 1) continue;
    if (e.from === from && e.to === to) pairs.push({ left: e.fromColumns[0], right: e.toColumns[0] });
    else if (e.from === to && e.to === from) pairs.push({ left: e.toColumns[0], right: e.fromColumns[0] });
  }
  return pairs.filter((p, i) => pairs.findIndex((q) => q.left === p.left && q.right === p.right) === i);
}

/** A role word said as itself (the same dictionary form) counts fully; by a derivation or synonym, half. */
const SAID_BY_RELATION = 0.5;

/** The request word that says a role word best, and how fully: 1 as itself, less by a relation. */
function saidRoleWord(s: ReadingState, word: string): { token: string; weight: number } | null {
  const tokens = s.links.tokens.map((t) => t.toLowerCase()).filter((t) => /^[a-z]{3,}$/.test(t));
  const forms = [word, lemmaOf(word)];
  let related: string | null = null;
  for (const token of tokens) {
    const said = [token, lemmaOf(token)];
    if (said.some((x) => forms.includes(x))) return { token, weight: 1 };
    const r = related ? null : relationBetween(said, forms);
    if (r === 'synonym' || r === 'derived') related = token;
  }
  return related ? { token: related, weight: SAID_BY_RELATION } : null;
}

/** The key column of a pair that holds the role: the one not named like the other table's key. */
function roleOf(pair: KeyPair, from: string, to: string): string[] {
  const fromSide = roleWords(pair.left, to, pair.right);
  return fromSide.length ? fromSide : roleWords(pair.right, from, pair.left);
}

/** How much of a key's role the request says (each word weighed as `saidRoleWord` says), and the word that says most. */
function roleSaid(s: ReadingState, role: readonly string[]): { share: number; word: string } | null {
  const said = role
    .map((w) => saidRoleWord(s, w))
    .filter((x): x is { token: string; weight: number } => !!x)
    .sort((a, b) => b.weight - a.weight);
  const total = said.reduce((sum, x) => sum + x.weight, 0);
  return said[0] ? { share: total / role.length, word: said[0].token } : null;
}

/**
 * Which key joins `from` to `to` for this request, when they join on more than one: the key whose
 * role the request says most fully (`destroyed` says all of `Destroyed_by`, half of
 * `Destruction_Authorised_by`); two said as fully are two roles, which one join cannot honour.
 */
export function chooseRoleKey(s: ReadingState, from: string, to: string): RoleChoice {
  const pairs = keysBetween(s, from, to);
  if (pairs.length < 2) return { kind: 'one' };
  const said = pairs
    .flatMap((pair) => {
      const r = roleSaid(s, roleOf(pair, from, to));
      return r ? [{ pair, ...r }] : [];
    })
    .sort((a, b) => b.share - a.share);
  const [best, next] = said;
  if (!best) return { kind: 'unsaid', pairs };
  if (next && next.share === best.share) return { kind: 'several', said: said.filter((x) => x.share === best.share) };
  return { kind: 'said', pair: best.pair, word: best.word, role: roleOf(best.pair, from, to).join(' ') };
}

/** The column of a pair that says the role, as `table.column`. */
function roleColumn(pair: KeyPair, from: string, to: string): string {
  return roleWords(pair.left, to, pair.right).length ? `${from}.${pair.left}` : `${to}.${pair.right}`;
}

/** A join step as `join` takes it from the path: its table, and the one pair it joins on. */
export interface JoinStep {
  table: string;
  from: string;
  pair: KeyPair;
}

/**
 * Makes one step of a join path honour the roles said: the key the request names replaces the one
 * the shortest path took (said as a reading); several roles said, or none where the keys differ,
 * is a doubt, since the plan joins a table once and the answer would read one role as all.
 * Returns the step's pair, and whether the role decided it (the path's "as short" note is then moot).
 */
export function honourRoles(s: ReadingState, step: JoinStep): { pair: KeyPair; decided: boolean } {
  const choice = chooseRoleKey(s, step.from, step.table);
  const keys = (ps: readonly KeyPair[]) => ps.map((p) => roleColumn(p, step.from, step.table)).join(' or ');
  switch (choice.kind) {
    case 'one':
      rivalRole(s, step);
      return { pair: step.pair, decided: false };
    case 'said':
      s.readings.push(
        `${step.table} is joined on ${step.from}.${choice.pair.left}: "${choice.word}" says the role (${choice.role})`,
      );
      return { pair: choice.pair, decided: true };
    case 'several':
      doubt(s, `"${choice.said.map((x) => x.word).join('" and "')}" name ${keys(choice.said.map((x) => x.pair))}, two roles of ${step.table}; the plan joins a table once`); // prettier-ignore
      return { pair: step.pair, decided: true };
    case 'unsaid':
      doubt(s, `${step.from} joins ${step.table} on ${keys(choice.pairs)}; nothing said names the role`);
      return { pair: step.pair, decided: true };
  }
}

/**
 * `problems reported by the staff …` read from Problem_Log, whose one key to Staff is
 * `assigned_to_staff_id`: the role said is another table's key (`Problems.reported_by_staff_id`),
 * so the join does not honour it. A doubt, never an answer that reads one role as another.
 */
function rivalRole(s: ReadingState, step: JoinStep): void {
  const edges = joinEdges(keyedTables(s.schema)).filter((e) => e.fromColumns.length === 1 && e.toColumns.length === 1);
  const taken = edges.find(
    (e) =>
      (e.from === step.from && e.to === step.table && e.fromColumns[0] === step.pair.left) ||
      (e.from === step.table && e.to === step.from && e.fromColumns[0] === step.pair.right),
  );
  if (!taken) return;
  const role = (e: (typeof edges)[number]) => roleWords(e.fromColumns[0] ?? '', e.to, e.toColumns[0] ?? '');
  const own = role(taken);
  if (own.length && roleSaid(s, own)?.share === 1) return;
  for (const e of edges) {
    if (e === taken || e.to !== taken.to) continue;
    const rival = role(e);
    const said = rival.length ? roleSaid(s, rival) : null;
    if (said?.share !== 1) continue;
    const key = `${taken.from}.${taken.fromColumns[0] ?? ''}`;
    doubt(s, `"${said.word}" names the role ${e.from}.${e.fromColumns[0] ?? ''}, but ${taken.to} is joined on ${key}`);
    return;
  }
}

function doubt(s: ReadingState, why: string): void {
  if (!s.doubts.includes(why)) s.doubts.push(why);
}
