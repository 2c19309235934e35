import { Gateway } from '@nl2p/gateway-client';

/** The evals call the gateway as every client does: through its generated client. */
export type EvalGateway = Gateway;
export type { SessionView, TraceRecord } from '@nl2p/gateway-client';

export function evalGateway(baseUrl: string, apiKey?: string): EvalGateway {
  return new Gateway({ baseUrl, apiKey, userAgent: 'nl2pipeline-evals' });
}
