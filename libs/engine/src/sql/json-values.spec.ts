import { bigintToJson, jsonSafe } from './json-values';

describe('jsonSafe', () => {
  it('turns BigInt, dates, bytes and non-finite numbers into JSON values, recursively', () => {
    expect(
      jsonSafe({
        small: 42n,
        big: 2n ** 60n,
        when: new Date(Date.UTC(2024, 2, 1, 12)),
        bad: new Date(NaN),
        bytes: Uint8Array.from([0xab, 0x01]),
        nan: NaN,
        list: [1n, Infinity, null, undefined],
      }),
    ).toEqual({
      small: 42,
      big: '1152921504606846976',
      when: '2024-03-01T12:00:00.000Z',
      bad: null,
      bytes: '\\xab01',
      nan: 'NaN',
      list: [1, 'Infinity', null, null],
    });
  });

  it('keeps integers exact: numbers within 2^53, strings beyond', () => {
    expect(bigintToJson(9007199254740991n)).toBe(9007199254740991);
    expect(bigintToJson(9007199254740992n)).toBe('9007199254740992');
    expect(bigintToJson(-9007199254740992n)).toBe('-9007199254740992');
  });
});
