import path from 'node:path';
import { ROOT, ServiceProcess as BaseServiceProcess, type ServiceName } from '../../test/support/processes';

export { ROOT, SERVICES, freePort, waitForHealth, type ServiceName } from '../../test/support/processes';

/**
 * Where the eval's services are built (`scripts/eval.sh`): its own copy, so another build of
 * `dist/` during a run cannot swap code under running or restarting processes.
 */
export const EVAL_DIST = process.env.EVAL_DIST ?? path.join(ROOT, 'tmp/eval-dist');

/** A built service as its own process, run from the private build by default. */
export class ServiceProcess extends BaseServiceProcess {
  constructor(name: ServiceName, env: Record<string, string>, dist = EVAL_DIST) {
    super(name, env, dist);
  }
}
