import type { Logger } from '@nestjs/common';
import type { Envelope } from '@nl2p/envelope';
import { errorMessage } from './failures';
import type { TmpPipelineLedger } from './tokens';

/**
 * Deletes one temp pipeline of a session through the ledger, best effort: a failure (the engine
 * down) is logged with `leftTo` and leaves the pipeline to the janitor. True when it is gone.
 */
export async function deleteTmpPipeline(
  ledger: TmpPipelineLedger,
  logger: Logger,
  session: Pick<Envelope, 'session_id' | 'target'>,
  tmpId: string,
  leftTo: string,
): Promise<boolean> {
  try {
    await ledger.delete(session.target, tmpId);
    return true;
  } catch (err) {
    logger.warn({ msg: leftTo, session_id: session.session_id, tmp_id: tmpId, error: errorMessage(err) });
    return false;
  }
}
