import { useEffect, useState } from 'preact/hooks';
import { describeMeaning } from '@nl2p/envelope';
import type { Example, GlossaryEntry, GlossaryFields } from '@nl2p/gateway-client';
import { plainMessage, type ConsoleApi } from './api';

// What the product has learnt for this key's tenant: the glossary (terms it reads like the
// data's own names) and the confirmed questions (shown beside close requests, reused with new
// values). Its own chunk: it reads meanings with the envelope's describer, which brings the
// schemas with it, and most visits never open it.

/** The glossary file's fields a meaning is written with; `table` alone names the table. */
const KINDS = [
  { field: 'expr', label: 'a computation', hint: 'quantity * unit_price' },
  { field: 'condition', label: 'a row condition', hint: "status <> 'cancelled'" },
  { field: 'column', label: 'a column', hint: 'temperature' },
  { field: 'table', label: 'the table itself', hint: '' },
] as const;
type Kind = (typeof KINDS)[number]['field'];

export default function Teach({ api }: { api: ConsoleApi }) {
  const [entries, setEntries] = useState<GlossaryEntry[] | null>(null);
  const [examples, setExamples] = useState<Example[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Runs a change through the gateway, then shows both lists as they are now (or its refusal). */
  const act = async (change?: () => Promise<unknown>) => {
    setError(null);
    try {
      if (change) await change();
      const [terms, confirmed] = await Promise.all([api.gw.glossary(), api.gw.examples()]);
      setEntries(terms);
      setExamples(confirmed);
      return true;
    } catch (err) {
      setError(plainMessage(err));
      return false;
    }
  };
  useEffect(() => {
    void act();
  }, []);

  return (
    <div class="teach">
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <section aria-label="Glossary">
        <h3>Glossary</h3>
        <TermList entries={entries} onForget={(term) => void act(() => api.gw.forgetTerm(term))} />
        <DefineForm onDefine={(term, means) => act(() => api.gw.defineTerm(term, means))} />
      </section>
      <section aria-label="Confirmed questions">
        <h3>Confirmed questions</h3>
        <ExampleList examples={examples} onForget={(id) => void act(() => api.gw.forgetExample(id))} />
      </section>
    </div>
  );
}

function TermList({ entries, onForget }: { entries: GlossaryEntry[] | null; onForget: (term: string) => void }) {
  if (!entries) return <p class="hint">Loading…</p>;
  if (!entries.length) return <p class="hint">No terms yet: teach one below.</p>;
  return (
    <ul class="terms">
      {entries.map((e) => (
        <li key={e.term} data-testid="term">
          <strong>{e.term}</strong> <span class="meaning">{describeMeaning(e.means)}</span>{' '}
          <span class="hint meta">
            {e.means.table} · {e.created_by}
          </span>{' '}
          <button type="button" class="link delete" aria-label={`Forget ${e.term}`} onClick={() => onForget(e.term)}>
            Forget
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A term and its meaning in the glossary file's fields; kept as typed when the gateway refuses it. */
function DefineForm({ onDefine }: { onDefine: (term: string, means: GlossaryFields) => Promise<boolean> }) {
  const [term, setTerm] = useState('');
  const [table, setTable] = useState('');
  const [kind, setKind] = useState<Kind>('expr');
  const [meaning, setMeaning] = useState('');
  const hint = KINDS.find((k) => k.field === kind)?.hint ?? '';
  const submit = async (ev: Event) => {
    ev.preventDefault();
    const means: GlossaryFields = kind === 'table' ? { table } : { table, [kind]: meaning };
    if (await onDefine(term.trim(), means)) {
      setTerm('');
      setMeaning('');
    }
  };
  return (
    <form class="define" aria-label="Define a term" onSubmit={(ev) => void submit(ev)}>
      <label>
        Term <input aria-label="Term" value={term} required onInput={(e) => setTerm(e.currentTarget.value)} />
      </label>
      <label>
        Table <input aria-label="Table" value={table} required onInput={(e) => setTable(e.currentTarget.value)} />
      </label>
      <label>
        Means{' '}
        <select aria-label="Means" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
          {KINDS.map((k) => (
            <option key={k.field} value={k.field}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {kind !== 'table' && (
        <label>
          Meaning{' '}
          <input
            aria-label="Meaning"
            value={meaning}
            required
            placeholder={hint}
            onInput={(e) => setMeaning(e.currentTarget.value)}
          />
        </label>
      )}
      <button type="submit">Define</button>
    </form>
  );
}

function ExampleList({ examples, onForget }: { examples: Example[] | null; onForget: (id: string) => void }) {
  if (!examples) return <p class="hint">Loading…</p>;
  if (!examples.length) return <p class="hint">None yet: a question you confirm is kept here.</p>;
  return (
    <ul class="examples">
      {examples.map((e) => (
        <li key={e.id} data-testid="example">
          <span>{e.request}</span>
          <code class="hint">{e.sql}</code>
          <button type="button" class="link delete" aria-label={`Forget ${e.request}`} onClick={() => onForget(e.id)}>
            Forget
          </button>
        </li>
      ))}
    </ul>
  );
}
