import { chooseChart } from './chart-rule';

describe('chooseChart', () => {
  it('draws a line for a time column and a measure', () => {
    const rows = [
      ['2024-03-01 00:00:00', 21.5],
      ['2024-03-01 01:00:00', 22.1],
      ['2024-03-01 02:00:00', null],
    ];
    expect(chooseChart(['hour', 'avg_temp'], rows)).toMatchObject({ kind: 'line', x: 0, ys: [1] });
  });

  it('draws bars for a category and measures, the time column winning over a category', () => {
    expect(
      chooseChart(
        ['device_id', 'avg_temp', 'n'],
        [
          ['dev-01', 21, 3],
          ['dev-02', 25, 4],
        ],
      ),
    ).toMatchObject({
      kind: 'bar',
      x: 0,
      ys: [1, 2],
      reason: 'avg_temp, n per device_id (a category and a measure)',
    });
    const both = [
      ['dev-01', '2024-03-01', 1],
      ['dev-02', '2024-03-02', 2],
    ];
    expect(chooseChart(['device_id', 'day', 'n'], both)).toMatchObject({ kind: 'line', x: 1, ys: [2] });
  });

  it('draws nothing for a single number, one row, no measure, or too many categories', () => {
    expect(chooseChart(['count'], [[42]])).toBeNull();
    expect(chooseChart(['device_id', 'avg_temp'], [['dev-01', 21]])).toBeNull();
    expect(
      chooseChart(
        ['device_id', 'status'],
        [
          ['dev-01', 'ok'],
          ['dev-02', 'bad'],
        ],
      ),
    ).toBeNull();
    expect(
      chooseChart(
        ['a', 'b'],
        [
          [1, 2],
          [3, 4],
        ],
      ),
    ).toBeNull();
    const many = Array.from({ length: 41 }, (_, i) => [`c${i}`, i]);
    expect(chooseChart(['name', 'v'], many)).toBeNull();
  });
});
