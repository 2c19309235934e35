import type { LlmClient, LlmJsonRequest, LlmJsonResult, LlmTextRequest, LlmTextResult, LlmUsage } from '@nl2p/llm';
import { recordLlmCall } from '@nl2p/telemetry';

/** Reports every call's model, tokens and latency into the current node run's call log. */
export class RecordingLlmClient implements LlmClient {
  constructor(private readonly inner: LlmClient) {}

  async text(request: LlmTextRequest): Promise<LlmTextResult> {
    const result = await this.inner.text(request);
    record(result.usage);
    return result;
  }

  async json<T>(request: LlmJsonRequest<T>): Promise<LlmJsonResult<T>> {
    const result = await this.inner.json(request);
    record(result.usage);
    return result;
  }
}

function record(u: LlmUsage): void {
  recordLlmCall({
    model: u.model,
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    latency_ms: u.latency_ms,
    finish_reason: u.finish_reason,
    retries: u.retries,
  });
}
