import { UnrecoverableError } from 'bullmq';
import { describeFailure, isRetryable, redact } from './failures';

/**
 * Stand-ins that classify themselves like the engine's and the LLM library's errors do
 * (`failureKind`, the envelope's contract); their class names do not matter.
 */
const managerError = (status: number | null, body: string, unavailable: boolean, message: string) =>
  Object.assign(new Error(message), {
    failureKind: unavailable
      ? 'engine_unavailable'
      : status === 409 && body.includes('is busy processing another command')
        ? 'engine_busy'
        : 'engine_refused',
  });
const llmError = (message: string, retryable: boolean) =>
  Object.assign(new Error(message), { failureKind: retryable ? 'llm_unavailable' : 'llm_refused' });

describe('node failures', () => {
  it('retries outages, the busy lock and LLM errors marked retryable; not rejections', () => {
    expect(isRetryable(managerError(503, 'down', true, 'GET /streams failed: HTTP 503: down'))).toBe(true);
    expect(isRetryable(managerError(null, '', true, 'GET /streams failed: timed out'))).toBe(true);
    expect(isRetryable(managerError(409, 'pipeline x is busy processing another command', false, 'busy'))).toBe(true);
    expect(isRetryable(managerError(409, 'pipeline x already exists', false, 'exists'))).toBe(false);
    expect(isRetryable(managerError(422, 'missing field', false, 'bad request'))).toBe(false);
    expect(isRetryable(llmError('429', true))).toBe(true);
    expect(isRetryable(llmError('400', false))).toBe(false);
    expect(isRetryable(new UnrecoverableError('bad envelope'))).toBe(false);
    expect(isRetryable(new Error('Connection is closed.'))).toBe(true);
  });

  it('say which node failed and what was unavailable', () => {
    expect(describeFailure('validate', managerError(503, 'x', true, 'POST /pipelines failed: HTTP 503: x'))).toBe(
      'validate: the engine (veloFlux Manager) is unavailable: POST /pipelines failed: HTTP 503: x',
    );
    expect(describeFailure('draft_sql', llmError('LLM call (role preview) failed after 3 attempt(s): 500', true))).toBe(
      'draft_sql: the LLM is unavailable: LLM call (role preview) failed after 3 attempt(s): 500',
    );
    expect(describeFailure('route_intent', llmError('LLM call failed: 400 bad', false))).toBe(
      'route_intent: the LLM call failed: LLM call failed: 400 bad',
    );
    expect(describeFailure('init_session', new Error('boom'))).toBe('init_session: it failed: boom');
  });

  it('never carry secrets: configured ones and URL credentials are redacted', () => {
    const err = new Error('fetch http://admin:hunter2@manager:8080/pipelines failed with key sk-live-123456');
    const message = describeFailure('validate', err, ['sk-live-123456']);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('sk-live-123456');
    expect(message).toContain('http://[redacted]@manager:8080/pipelines');
    expect(redact('nothing to hide', ['abc'])).toBe('nothing to hide');
  });
});
