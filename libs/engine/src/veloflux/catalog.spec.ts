import type { FunctionArgSpec, FunctionDef, SyntaxConstruct } from '../manager-client';
import { compactSignature, toFunctionInfos, toSyntaxRules, VELOFLUX_DIALECT_NOTES } from './catalog';

const any = { kind: 'any' } as const;
const arg = (name: string, optional = false, variadic = false): FunctionArgSpec => ({
  name,
  type: any,
  optional,
  variadic,
});

function def(name: string, args: FunctionArgSpec[], extra: Partial<FunctionDef> = {}): FunctionDef {
  return {
    kind: 'scalar',
    name,
    aliases: [],
    signature: { args, return_type: any },
    description: `${name} description`,
    allowed_contexts: ['select', 'where', 'group_by'],
    requirements: [],
    constraints: [],
    examples: [],
    ...extra,
  };
}

describe('compactSignature', () => {
  it.each([
    ['round', [arg('x'), arg('precision', true)], 'round(x, [precision])'],
    ['concat', [arg('a'), arg('b')], 'concat(a, b)'],
    // The server marks variadic args optional as well; variadic must win.
    ['array_create', [arg('value', true, true)], 'array_create(value...)'],
    ['had_changed', [arg('ignore_null'), arg('x', false, true)], 'had_changed(ignore_null, x...)'],
    ['log', [arg('base', true), arg('x')], 'log([base], x)'],
    ['pi', [], 'pi()'],
  ])('%s', (name, args, expected) => {
    expect(compactSignature(name, args)).toBe(expected);
  });
});

describe('toFunctionInfos', () => {
  it('keeps the first of duplicated names and adds the window pseudo-functions', () => {
    const infos = toFunctionInfos([
      def('isnull', [arg('value')], { description: 'first' }),
      def('isnull', [arg('value')], { description: 'second' }),
      def('ceil', [arg('x')], { aliases: ['ceiling'] }),
      def('sum', [arg('x')], { kind: 'aggregate', allowed_contexts: ['select'] }),
    ]);
    expect(infos.filter((f) => f.name === 'isnull')).toEqual([
      expect.objectContaining({ description: 'first', signature: 'isnull(value)' }),
    ]);
    expect(infos.find((f) => f.name === 'ceil')?.aliases).toEqual(['ceiling']);
    expect(infos.find((f) => f.name === 'sum')).toMatchObject({ kind: 'aggregate', contexts: ['select'] });
    expect(infos.filter((f) => f.kind === 'window').map((f) => f.name)).toEqual([
      'tumblingwindow',
      'slidingwindow',
      'countwindow',
      'statewindow',
    ]);
  });
});

describe('toSyntaxRules', () => {
  const tree: SyntaxConstruct[] = [
    {
      id: 'select',
      type: 'group',
      title: 'SELECT',
      children: [
        {
          id: 'select.order_by',
          type: 'feature',
          title: 'ORDER BY',
          status: 'supported',
          constraints: ['order_by_nulls_first_last_unsupported', 'some_new_rule'],
          workarounds: [
            'If you need NULLS FIRST/LAST, rewrite the sort key expression explicitly (e.g., `a IS NULL`, then `a`).',
          ],
        },
      ],
    },
    {
      id: 'window',
      type: 'group',
      title: 'Windowing',
      children: [
        {
          id: 'window',
          type: 'feature',
          title: 'Window declaration (GROUP BY)',
          status: 'supported',
          children: [{ id: 'window.tumbling', type: 'feature', title: 'Tumbling window', status: 'supported' }],
        },
      ],
    },
  ];

  it('flattens features only, so the duplicated id `window` yields one rule', () => {
    const rules = toSyntaxRules(tree);
    expect(rules.map((r) => r.id)).toEqual(['select.order_by', 'window', 'window.tumbling']);
  });

  it('turns constraint ids into sentences and fixes advice the engine rejects', () => {
    const [orderBy] = toSyntaxRules(tree);
    expect(orderBy?.notes).toContain('NULLS FIRST/LAST is not supported.');
    expect(orderBy?.notes).toContain('Some new rule.');
    expect(orderBy?.notes.join(' ')).not.toMatch(/IS NULL/);
    expect(orderBy?.notes.join(' ')).toContain('isnull(a)');
  });

  it("corrects the catalog's time units", () => {
    const tumbling = toSyntaxRules(tree).find((r) => r.id === 'window.tumbling');
    expect(tumbling?.notes.join(' ')).toContain("'ss'");
  });
});

describe('VELOFLUX_DIALECT_NOTES', () => {
  it('states the §7 facts, one line each', () => {
    const text = VELOFLUX_DIALECT_NOTES.join('\n');
    for (const fact of [
      "'ss'",
      'hoppingwindow',
      'isnull(x)',
      'regexp_matches',
      'concat(a, b)',
      'No type conversion',
      'No JOIN',
      'WHERE is applied after the aggregation',
      'LIMIT',
      '(a->b) > 1',
    ]) {
      expect(text).toContain(fact);
    }
    expect(VELOFLUX_DIALECT_NOTES.every((n) => !n.includes('\n'))).toBe(true);
    // The engine cannot call cast in any spelling: no note may recommend it.
    expect(text).not.toMatch(/use (the function )?cast\(/i);
  });
});
