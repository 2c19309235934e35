import { buildPath, encodePathSegment, isBusyError, ManagerError, ManagerUnavailableError } from './manager-client';

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
