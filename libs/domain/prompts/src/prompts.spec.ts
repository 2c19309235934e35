import { newSessionEnvelope, type Envelope } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';
import { reviseMessages } from './prompts';

const catalog: Catalog = { dialect: 'duckdb', functions: [], syntax: [], dialectNotes: [] };

function envelopeAfter(failed: string[], current: string): Envelope {
  const base = newSessionEnvelope({
    sessionId: 'a'.repeat(32),
    target: 'duckdb',
    maxAttempts: 5,
    sink: { type: 'nop', props: {} },
  });
  const failures = [...failed, current].map((sql, i) => ({
    attempt: i + 1,
    sql,
    stage: 'local' as const,
    error: `unknown column 'temp' (attempt ${i + 1})`,
  }));
  return {
    ...base,
    request: 'average temperature per device',
    draft: { ...base.draft, sql: current },
    validation: {
      ...base.validation,
      attempt: failures.length,
      error: failures[failures.length - 1].error,
      error_stage: 'local',
      failures,
    },
  };
}

const userText = (e: Envelope, compact: boolean) =>
  reviseMessages(e, catalog, { compact }).find((m) => m.role === 'user')?.content ?? '';

describe('reviseMessages', () => {
  it('tells the model when the failed SQL repeats an earlier failed attempt, in compact prompts too', () => {
    const e = envelopeAfter(
      ['SELECT temp FROM sensor_readings', 'SELECT x FROM sensor_readings'],
      'SELECT   temp\nFROM sensor_readings;',
    );
    for (const compact of [true, false]) {
      expect(userText(e, compact)).toContain(
        'The previous SQL is the same as attempt 1, which failed too: do not send it again.',
      );
    }
  });

  it('says nothing of repeats when the SQL is new', () => {
    const e = envelopeAfter(['SELECT temp FROM sensor_readings'], 'SELECT temperature FROM sensor_readings');
    expect(userText(e, true)).not.toContain('same as attempt');
    expect(userText(e, false)).not.toContain('same as attempt');
  });
});
