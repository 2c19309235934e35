import { findJoinPath, joinEdges, type KeyedTables } from './join-path';

const cols = (...names: string[]) => names.map((n) => ({ name: n, data_type: n.endsWith('id') ? 'integer' : 'text' }));

describe('join paths', () => {
  it('infers a key to the table that owns it, never two row numbers or two siblings', () => {
    const tables: KeyedTables = {
      sales: { columns: cols('id', 'car_id', 'customer_id', 'price') },
      cars: { columns: cols('id', 'model') },
      customers: { columns: cols('customer_id', 'name') },
      invoices: { columns: cols('id', 'customer_id') },
    };
    const edges = joinEdges(tables).map((e) => `${e.from}.${e.fromColumns.join()}=${e.to}.${e.toColumns.join()}`);
    expect(edges.sort()).toEqual(['invoices.customer_id=customers.customer_id', 'sales.car_id=cars.id', 'sales.customer_id=customers.customer_id']);
    expect(findJoinPath(tables, 'sales', ['cars'])?.joins).toEqual([
      { table: 'cars', kind: 'inner', on: [{ left: { table: 'sales', column: 'car_id' }, right: { table: 'cars', column: 'id' } }] },
    ]);
  }); // prettier-ignore

  it('follows declared keys through a bridge table, and infers keys only for tables they leave untouched', () => {
    const tables: KeyedTables = {
      authors: { columns: cols('author_id', 'name'), primaryKey: ['author_id'] },
      books: { columns: cols('book_id', 'title'), primaryKey: ['book_id'] },
      book_authors: { columns: cols('author_id', 'book_id'), foreignKeys: [{ columns: ['author_id'], references: { table: 'authors', columns: ['author_id'] } }, { columns: ['book_id'], references: { table: 'books', columns: ['book_id'] } }] },
      // No declared key touches these two: their key is inferred.
      reviews: { columns: cols('review_id', 'critic_id') },
      critics: { columns: cols('critic_id', 'name') },
    }; // prettier-ignore
    const path = findJoinPath(tables, 'authors', ['books']);
    expect(path?.joins.map((j) => j.table)).toEqual(['book_authors', 'books']);
    expect(path?.through).toEqual(['book_authors']);
    expect(path?.assumption).toBeNull();
    expect(findJoinPath(tables, 'reviews', ['critics'])?.joins[0].on).toEqual([{ left: { table: 'reviews', column: 'critic_id' }, right: { table: 'critics', column: 'critic_id' } }]);
    expect(findJoinPath(tables, 'authors', ['critics'])).toBeNull();
  }); // prettier-ignore

  it('infers a key named by the table initials when it is the first column, as such schemas write the key', () => {
    const tables: KeyedTables = {
      publication: { columns: cols('pid', 'cid', 'jid', 'title') },
      conference: { columns: cols('cid', 'name') },
      journal: { columns: cols('jid', 'name') },
      // `cid` is not this table's key: it is not its first column.
      city: { columns: cols('name', 'cid') },
      domain_keyword: { columns: cols('dkid', 'did') },
    };
    const edges = joinEdges(tables).map((e) => `${e.from}.${e.fromColumns.join()}=${e.to}.${e.toColumns.join()}`);
    expect(edges.sort()).toEqual(['city.cid=conference.cid', 'publication.cid=conference.cid', 'publication.jid=journal.jid']);
    expect(findJoinPath(tables, 'publication', ['conference'])?.assumption).toBeNull();
  }); // prettier-ignore

  it('says so when another path is as short, and takes the first in name order', () => {
    const tables: KeyedTables = {
      flights: { columns: cols('flight_id', 'origin', 'destination'), foreignKeys: [{ columns: ['origin'], references: { table: 'airports', columns: ['code'] } }, { columns: ['destination'], references: { table: 'airports', columns: ['code'] } }] },
      airports: { columns: cols('code', 'city') },
    }; // prettier-ignore
    const path = findJoinPath(tables, 'flights', ['airports']);
    expect(path?.joins[0].on[0].left.column).toBe('destination');
    expect(path?.assumption).toBe(
      'airports is joined on flights.destination = airports.code; another path is as short: on flights.origin = airports.code',
    );
  });
});
