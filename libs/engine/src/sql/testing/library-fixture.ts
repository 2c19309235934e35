/**
 * A small schema with declared keys and a bridge table (authors ↔ books through book_authors,
 * books → publishers), for join paths and sub-plans the demo data cannot show: the demo has no
 * bridge table and declares no foreign key. Loaded beside the demo tables by tests only.
 */
export const LIBRARY_SQL: readonly string[] = [
  'CREATE TABLE publishers (publisher_id INTEGER PRIMARY KEY, name VARCHAR, country VARCHAR)',
  'CREATE TABLE authors (author_id INTEGER PRIMARY KEY, name VARCHAR, born INTEGER)',
  'CREATE TABLE books (book_id INTEGER PRIMARY KEY, title VARCHAR, published DATE, pages INTEGER, publisher_id INTEGER REFERENCES publishers (publisher_id))',
  'CREATE TABLE book_authors (author_id INTEGER REFERENCES authors (author_id), book_id INTEGER REFERENCES books (book_id))',
  "INSERT INTO publishers VALUES (1, 'Northwind Press', 'Germany'), (2, 'Harbor Books', 'France'), (3, 'Quiet Pages', 'Germany')",
  "INSERT INTO authors VALUES (1, 'Ada Brandt', 1950), (2, 'Bruno Costa', 1962), (3, 'Clara Diaz', 1975), (4, 'Dara Engel', 1980), (5, 'Emil Faure', 1991), (6, 'Fatima Gul', NULL), (7, 'Gustav Holm', 1944)",
  "INSERT INTO books VALUES (1, 'Rivers', '2014-03-02', 320, 1), (2, 'Stone Roads', '2014-11-20', 210, 2), (3, 'Salt', '2016-06-01', 480, 1), (4, 'North Light', '2018-01-15', 150, 3), (5, 'Long Winter', '2018-09-09', 480, 2), (6, 'Glass', '2020-05-05', 95, NULL), (7, 'Harbors', '2021-02-28', 275, 3), (8, 'Quiet', '2023-12-01', NULL, 1)",
  'INSERT INTO book_authors VALUES (1, 1), (1, 3), (2, 2), (3, 2), (3, 4), (4, 5), (4, 6), (5, 7), (6, 8), (2, 5)',
];

/** The fixture's tables, so a test can drop them again. */
export const LIBRARY_TABLES = ['book_authors', 'books', 'authors', 'publishers'] as const;
