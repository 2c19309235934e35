import type { VelofluxRule } from '../rule';

/** JOIN or a second source after a comma: a pipeline reads exactly one stream. */
export const singleStream: VelofluxRule = {
  id: 'single-stream',
  check(q, out) {
    const src = q.source;
    if (src.kind !== 'stream' || src.joinAt === undefined) return;
    out.error(
      'JOIN and several FROM sources are not supported by veloFlux: a pipeline reads exactly one stream; ' +
        `query a single stream (FROM ${src.name}) and drop the join`,
      src.joinAt,
    );
  },
};
