import { previewCsv } from './csv';

describe('previewCsv', () => {
  it('writes a header and one line per row, quoting only what needs it', () => {
    const csv = previewCsv({
      columns: ['device', 'avg_temp', 'note'],
      rows: [
        ['dev-01', 31.5, 'plain'],
        ['dev-02', null, 'has, comma'],
        ['dev-"3"', 40, 'two\nlines'],
        ['dev-04', 1, { nested: true }],
      ],
      truncated: false,
    });
    expect(csv).toBe(
      'device,avg_temp,note\r\n' +
        'dev-01,31.5,plain\r\n' +
        'dev-02,,"has, comma"\r\n' +
        '"dev-""3""",40,"two\nlines"\r\n' +
        'dev-04,1,"{""nested"":true}"\r\n',
    );
  });
});
