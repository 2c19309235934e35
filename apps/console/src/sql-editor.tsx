import { useEffect, useRef } from 'preact/hooks';
import { autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { PostgreSQL, sql, StandardSQL } from '@codemirror/lang-sql';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';

/** A table's columns, for completing names as the person types. */
export type SqlSchema = Record<string, string[]>;

export interface SqlEditorProps {
  initial: string;
  /** Streaming targets speak veloFlux's plain SQL; the databases are closest to PostgreSQL's. */
  streaming: boolean;
  schema: SqlSchema;
  onCheck: (sql: string) => void;
  onCancel: () => void;
}

/**
 * The answer's SQL in CodeMirror 6 (its SQL language: highlighting, the dialect's keywords, the
 * data's table and column names to complete; undo history; Ctrl/Cmd+Enter checks). Sending it
 * starts a turn that checks it like any draft; nothing here runs it.
 */
export default function SqlEditor({ initial, streaming, schema, onCheck, onCancel }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const check = () => onCheck(view.current?.state.doc.toString() ?? initial);

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          lineNumbers(),
          history(),
          EditorView.lineWrapping,
          sql({ dialect: streaming ? StandardSQL : PostgreSQL, schema, upperCaseKeywords: true }),
          autocompletion(),
          syntaxHighlighting(defaultHighlightStyle),
          keymap.of([{ key: 'Mod-Enter', run: () => (check(), true) }, ...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({ 'aria-label': 'Edit the SQL' }),
        ],
      }),
    });
    view.current = editor;
    editor.focus();
    return () => editor.destroy();
    // Created once per opening: the text typed lives in the editor, not in props.
  }, []);

  return (
    <div class="sql-editor" data-testid="sql-editor">
      <div ref={host} />
      <div class="choices">
        <button type="button" class="primary" onClick={check} title="Check it (Ctrl+Enter)">
          Check this SQL
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <span class="hint">Checked like any draft: read-only, by the engine, before anything runs.</span>
      </div>
    </div>
  );
}
