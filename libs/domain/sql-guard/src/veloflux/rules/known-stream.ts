import type { VelofluxRule } from '../rule';
import { closeMatches, listNames } from '../../suggest';
import { quoted } from '../wording';

/**
 * The stream in FROM exists (stream names are case-sensitive), and is the one the draft was
 * grounded on unless the other stream's columns are known too.
 */
export const knownStream: VelofluxRule = {
  id: 'known-stream',
  check(q, out) {
    const name = q.streamName;
    const src = q.source;
    if (name === undefined || (src.kind !== 'stream' && src.kind !== 'subquery')) return;
    const known = q.knownStreams;
    if (q.streamStatus === 'unknown') {
      if (src.kind === 'subquery') {
        out.error(`unknown stream '${name}'; known streams: ${listNames(known)}`, src.at);
        return;
      }
      const caseMatch = known.find((k) => k.toLowerCase() === name.toLowerCase());
      if (caseMatch) {
        out.error(`unknown stream '${name}'; did you mean '${caseMatch}'? (stream names are case-sensitive)`, src.at);
        return;
      }
      const close = closeMatches(name, known);
      out.error(
        `unknown stream '${name}'${close.length ? `; did you mean ${close.map(quoted).join(' or ')}?` : ''}; known streams: ${listNames(known)}`,
        src.at,
      );
    } else if (q.streamStatus === 'other-without-columns' && src.kind === 'stream') {
      out.error(
        `the query reads from '${name}' but was drafted against stream '${q.g.stream}', whose columns are known; read FROM ${q.g.stream}`,
        src.at,
      );
    }
  },
};
