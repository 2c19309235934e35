import { useState } from 'preact/hooks';
import type { SessionSummary, TargetList } from './api';
import { sinceWhen } from './format';

/**
 * The caller's sessions, newest first: each with its first request, when it last moved, its
 * engine and status; opening one shows its last turn, deleting one asks once more before it goes.
 */
export function SessionList({
  sessions,
  targets,
  current,
  onOpen,
  onDelete,
}: {
  sessions: SessionSummary[];
  targets: TargetList['targets'];
  current: string | null;
  onOpen: (id: string) => void;
  onDelete: (id: string) => Promise<void>;
}) {
  // The one session whose delete was clicked once (a second click deletes it).
  const [doomed, setDoomed] = useState<string | null>(null);
  const label = (kind: string) => targets.find((t) => t.kind === kind)?.label ?? kind;
  if (!sessions.length) return null;
  return (
    <section aria-label="Your sessions">
      <h2>Your sessions</h2>
      <ul class="sessions">
        {sessions.map((s) => (
          <li key={s.session_id} class={s.session_id === current ? 'current' : undefined} data-testid="session">
            <button type="button" class="link" onClick={() => onOpen(s.session_id)}>
              {s.request ?? '(no request yet)'}
            </button>
            <span class="hint meta">
              <time dateTime={s.updated_at} title={new Date(s.updated_at).toLocaleString()}>
                {sinceWhen(s.updated_at)}
              </time>{' '}
              · {label(s.target)} · {s.interrupt_type ? s.interrupt_type.replace('need_', 'needs ') : s.status}
            </span>
            {doomed === s.session_id ? (
              <span class="confirm-delete">
                <button
                  type="button"
                  class="danger"
                  onClick={() => void onDelete(s.session_id).finally(() => setDoomed(null))}
                >
                  Delete for good
                </button>
                <button type="button" onClick={() => setDoomed(null)}>
                  Keep
                </button>
              </span>
            ) : (
              <button
                type="button"
                class="link delete"
                aria-label={`Delete session: ${s.request ?? s.session_id}`}
                onClick={() => setDoomed(s.session_id)}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
