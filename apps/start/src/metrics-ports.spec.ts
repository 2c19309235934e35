import { workerMetricsPorts, WORKERS } from './metrics-ports';

describe('workerMetricsPorts', () => {
  it('gives every worker its own port after the gateway’s, or from METRICS_PORT', () => {
    const ports = workerMetricsPorts(3000);
    expect(Object.keys(ports).sort()).toEqual([...WORKERS].sort());
    expect(Object.values(ports).sort()).toEqual([3001, 3002, 3003, 3004, 3005]);
    expect(Math.min(...Object.values(workerMetricsPorts(3000, 9100)))).toBe(9100);
    expect(WORKERS).not.toContain('gateway');
  });
});
