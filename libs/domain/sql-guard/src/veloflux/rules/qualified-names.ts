import type { VelofluxRule } from '../rule';

/**
 * `x.y` means stream.column in veloFlux: not three parts, not a struct field (that is `->`), and
 * `x` is the stream or its alias.
 */
export const qualifiedNames: VelofluxRule = {
  id: 'qualified-names',
  check(q, out) {
    for (const ref of q.refs) {
      switch (ref.kind) {
        case 'too-many-parts':
          out.error(
            `'${ref.text}' has more than two parts; veloFlux identifiers are at most stream.column — read struct fields with ->, e.g. (${ref.member}->${ref.field})`,
            ref.index,
          );
          break;
        case 'dot-on-column':
          out.error(
            `'${ref.text}': dot syntax means stream.column in veloFlux; for a struct field write (${ref.column}->${ref.member})`,
            ref.index,
          );
          break;
        case 'unknown-qualifier': {
          const alias = q.source.kind === 'stream' ? q.source.alias : undefined;
          out.error(
            `unknown stream or alias '${ref.qualifier}' in '${ref.text}'; the query reads from '${q.streamName ?? q.g.stream}'${alias ? ` (alias '${alias}')` : ''}`,
            ref.index,
          );
          break;
        }
        default:
          break;
      }
    }
  },
};
