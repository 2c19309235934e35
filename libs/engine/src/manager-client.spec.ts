import { buildPath, encodePathSegment, isBusyError, ManagerError, ManagerUnavailableError } from './manager-client';
import { failureKindOf } from '@nl2p/envelope';
import { LlmError } from '@nl2p/llm';
import { TargetQueryError } from './port';

describe('buildPath', () => {
  it('keeps a hostile stream name inside one segment', () => {
    expect(buildPath('/streams/describe/:name', { name: '../pipelines?x=1' })).toBe(
      '/streams/describe/..%2Fpipelines%3Fx%3D1',
    );
  });

  it('encodes every reserved character of an id', () => {
    expect(buildPath('/pipelines/:id/explain', { id: 'a/b#c d%' })).toBe('/pipelines/a%2Fb%23c%20d%25/explain');
  });

  it('refuses segments the URL parser would collapse or drop', () => {
    for (const bad of ['', '.', '..']) expect(() => encodePathSegment(bad)).toThrow(RangeError);
  });

  it('refuses a missing parameter', () => {
    expect(() => buildPath('/pipelines/:id', {})).toThrow(/missing path parameter id/);
  });
});

describe('ManagerError', () => {
  it('carries the plain-text body and the route pattern', () => {
    const err = new ManagerError('POST', '/pipelines', 400, 'stream s missing from storage');
    expect(err.message).toBe('POST /pipelines failed: HTTP 400: stream s missing from storage');
    expect(err).toMatchObject({
      status: 400,
      body: 'stream s missing from storage',
      method: 'POST',
      route: '/pipelines',
    });
    expect(err.unavailable).toBe(false);
  });

  it('marks outages', () => {
    const err = new ManagerUnavailableError('GET', '/streams', 503, 'down');
    expect(err).toBeInstanceOf(ManagerError);
    expect(err.unavailable).toBe(true);
    expect(err.name).toBe('ManagerUnavailableError');
  });

  it('recognizes the busy lock only by its 409 text', () => {
    expect(
      isBusyError(new ManagerError('POST', '/pipelines', 409, 'pipeline p is busy processing another command')),
    ).toBe(true);
    expect(isBusyError(new ManagerError('POST', '/pipelines', 409, 'pipeline p already exists'))).toBe(false);
  });
});

describe('failure kinds (the runner retries and words its message from these alone)', () => {
  it('classifies an outage, the busy lock and a refusal; a SQL target refusal; an LLM error', () => {
    expect(failureKindOf(new ManagerUnavailableError('GET', '/streams', 503, 'down'))).toBe('engine_unavailable');
    expect(
      failureKindOf(new ManagerError('POST', '/pipelines', 409, 'pipeline p is busy processing another command')),
    ).toBe('engine_busy');
    expect(failureKindOf(new ManagerError('POST', '/pipelines', 409, 'pipeline p already exists'))).toBe(
      'engine_refused',
    );
    expect(failureKindOf(new TargetQueryError('refused before reaching the database'))).toBe('engine_refused');
    expect(failureKindOf(new LlmError('429', true))).toBe('llm_unavailable');
    expect(failureKindOf(new LlmError('400', false))).toBe('llm_refused');
    expect(failureKindOf(new Error('Connection is closed.'))).toBeNull();
    expect(failureKindOf(Object.assign(new Error('x'), { failureKind: 'made_up' }))).toBeNull();
  });
});
