import { linkRequest } from './link';
import { proposePlan } from './propose';
import {
  buildIndex,
  commentReadings,
  initialKeyReadings,
  initialPrefixReadings,
  readingsOf,
  withoutBooleanPrefix,
} from './schema-index';

const said = (readings: { words: string[] }[]) => readings.map((r) => r.words.join(' '));

describe('readingsOf: how a name may be said', () => {
  it('reads glued parts as their words and keeps the name as written', () => {
    expect(said(readingsOf('paperid'))).toEqual(expect.arrayContaining(['paper id', 'paperid']));
    expect(said(readingsOf('sbCustName'))).toEqual(expect.arrayContaining(['sb customer name']));
  });
});

describe('withoutBooleanPrefix: a yes/no column said without its verb', () => {
  it.each([
    ['has_auto_gearbox', 'auto gearbox'],
    ['is_open', 'open'],
    ['was_refunded', 'refunded'],
  ])('%s is also said %s', (name, words) => {
    expect(said(withoutBooleanPrefix(readingsOf(name)))).toContain(words);
  });

  it('only in an index for a boolean column', () => {
    const index = buildIndex({
      tables: {
        cars: [
          { name: 'has_auto_gearbox', data_type: 'BOOLEAN' },
          { name: 'is_code', data_type: 'VARCHAR' },
        ],
      },
      values: {},
      streaming: false,
    });
    const columns = index.table('cars')?.columns ?? [];
    expect(said(columns[0]?.readings ?? [])).toContain('auto gearbox');
    expect(said(columns[1]?.readings ?? [])).not.toContain('code');
  });
});

describe('initialPrefixReadings: a name made of one letter and a word', () => {
  const tables = ['Department', 'Employee', 'Project', 'Dependent_info'];
  it.each([
    ['DName', 'Department', 'department name'],
    ['DName', 'Department', 'name'],
    ['Pname', 'Project', 'project name'],
    ['Dnumber', 'Employee', 'department number'],
    ['Fname', 'Employee', 'first name'],
    ['LName', 'Employee', 'last name'],
  ])('%s of %s is said %s', (column, table, words) => {
    expect(said(initialPrefixReadings(column, table, tables))).toContain(words);
  });

  it.each([
    ['plate', 'Project'], // a word itself
    ['did', 'Department'], // a key: initialKeyReadings reads it
    ['xq', 'Employee'], // no word after the letter
    ['first_name', 'Employee'], // words of its own
    ['Rname', 'Employee'], // r begins no table and no part of a name
  ])('reads nothing into %s of %s', (column, table) => {
    expect(initialPrefixReadings(column, table, tables)).toEqual([]);
  });
});

describe('initialKeyReadings: a key named by a table initials and id', () => {
  const tables = ['author', 'domain', 'domain_author', 'organization', 'publication'];
  it.each([
    ['aid', 'author id'],
    ['did', 'domain id'],
    ['oid', 'organization id'],
    ['pid', 'publication id'],
    ['daid', 'domain author id'],
  ])('%s is said %s', (column, words) => {
    expect(said(initialKeyReadings(column, tables))).toContain(words);
  });

  it('reads nothing into names that are not initials and id', () => {
    expect(initialKeyReadings('paid', tables)).toEqual([]);
    expect(initialKeyReadings('kid', tables)).toEqual([]);
    expect(initialKeyReadings('name', tables)).toEqual([]);
  });
});

describe('commentReadings: what a database comment says a name is', () => {
  it.each([
    ['automatic gearbox', 'automatic gearbox'],
    ['Manufacturer of the car', 'manufacturer'],
    ['Primary key for the cars table', 'primary key'],
    ['The total freight cost, in US dollars', 'total freight cost'],
  ])('%j is read as %j', (comment, words) => {
    expect(said(commentReadings(comment))).toEqual([words]);
  });

  it('reads nothing from an empty comment', () => {
    expect(commentReadings('')).toEqual([]);
    expect(commentReadings(undefined)).toEqual([]);
  });

  it('links a request to a terse column through its comment, and says so', () => {
    const schema = {
      tables: {
        cars: [
          { name: 'id', data_type: 'INTEGER' },
          { name: 'mk', data_type: 'VARCHAR', comment: 'Manufacturer of the car' },
          { name: 'px', data_type: 'DOUBLE', comment: 'list price' },
        ],
      },
      values: {},
      streaming: false,
    };
    const p = proposePlan(linkRequest('average list price per manufacturer', schema), schema);
    expect(JSON.stringify(p.plan)).toContain('"fn":"avg","arg":{"kind":"column","ref":{"column":"px"}}');
    expect(JSON.stringify(p.plan?.group_by)).toContain('"column":"mk"');
    expect(p.readings).toEqual(expect.arrayContaining(['"manufacturer" is read as mk']));
  });
});
