import type { SessionView } from '@nl2p/gateway-client';
import { nextStep } from './server';

describe('nextStep', () => {
  const waiting = (target: string) =>
    ({ session_id: 's1', status: 'waiting', target, interrupt: { type: 'need_confirm' } }) as unknown as SessionView;

  it('says the SQL ran read-only on a database, and that nothing is applied on veloFlux', () => {
    expect(nextStep(waiting('duckdb'))).toMatch(/^This SQL ran read-only; its rows are in the preview/);
    expect(nextStep(waiting('postgres'))).toMatch(/^This SQL ran read-only/);
    expect(nextStep(waiting('veloflux'))).toMatch(
      /^The engine accepted this SQL; confirming returns the pipeline request/,
    );
    expect(nextStep(waiting('duckdb'))).toContain('{"session_id": "s1", "confirm": true}');
  });
});
