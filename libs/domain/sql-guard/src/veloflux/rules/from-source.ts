import type { VelofluxRule } from '../rule';
import { listNames } from '../../suggest';

/**
 * FROM names one stream, plainly: not missing, not a string, not `a.b`, not quoted (veloFlux keeps
 * the quotes as part of the name), not a subquery (one shape is accepted and planned as the outer
 * query over its stream, which drops the subquery's column list: a warning).
 */
export const fromSource: VelofluxRule = {
  id: 'from-source',
  check(q, out) {
    const src = q.source;
    const stream = q.g.stream || '<stream>';
    switch (src.kind) {
      case 'missing':
        out.error(`the query has no FROM clause; veloFlux pipelines read one stream: SELECT … FROM ${stream}`);
        return;
      case 'empty':
        out.error(
          `FROM must name a stream${q.knownStreams.length ? `; known streams: ${listNames(q.knownStreams)}` : ''}`,
          src.at,
        );
        return;
      case 'string':
        out.error(`FROM must name a stream, not a string literal: write FROM ${src.value} without quotes`, src.at);
        return;
      case 'other':
        out.error(`FROM must name a stream, found '${src.text}'`, src.at);
        return;
      case 'subquery':
        if (src.stream === undefined) {
          out.error(
            `subqueries are not supported by veloFlux (found a subquery in FROM); select from the stream directly: FROM ${stream}`,
            src.at,
          );
        } else {
          out.warn(
            `veloFlux plans a subquery in FROM as the outer query over its stream and drops the subquery's column list; select from the stream directly: FROM ${src.stream}`,
            src.at,
          );
        }
        return;
      case 'stream':
        if (src.dotted) out.error(`FROM takes a plain stream name, found '${src.dotted}'`, src.at);
        if (src.quoted) {
          out.error(
            `do not quote the stream name in FROM: veloFlux keeps the quotes as part of the name; write FROM ${src.name}`,
            src.at,
          );
        }
        return;
    }
  },
};
