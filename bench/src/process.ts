import path from 'node:path';
import { ROOT, ServiceProcess as BaseServiceProcess, type ServiceName } from '../../test/support/processes';

export { ROOT, SERVICES, freePort, waitForHealth, type ServiceName } from '../../test/support/processes';

/**
 * Where the bench's services are built (`scripts/bench.sh`): its own copy, so another build of
 * `dist/` during a run cannot swap code under running or restarting processes.
 */
export const BENCH_DIST = process.env.BENCH_DIST ?? path.join(ROOT, 'tmp/bench-dist');

/** A built service as its own process, run from the private build by default. */
export class ServiceProcess extends BaseServiceProcess {
  constructor(name: ServiceName, env: Record<string, string>, dist = BENCH_DIST) {
    super(name, env, dist);
  }
}
