import { linkRequest } from './link';
import { proposePlan } from './propose';
import { wordTable } from './word-table';

describe('wordTable', () => {
  it('finds only its own words, never a built-in', () => {
    const t = wordTable({ qty: 'quantity' });
    expect(t.qty).toBe('quantity');
    for (const w of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) expect(t[w]).toBeUndefined();
  });

  it('lets the linker read schemas and requests with such words (formula_1 has constructors)', () => {
    const schema = {
      streaming: false,
      tables: {
        constructors: [
          { name: 'constructorId', data_type: 'INTEGER' },
          { name: 'name', data_type: 'VARCHAR' },
          { name: 'toString', data_type: 'VARCHAR' },
        ],
      },
    };
    const text = 'names of the constructor with the valueOf toString';
    expect(() => proposePlan(linkRequest(text, schema), schema)).not.toThrow();
  });
});
