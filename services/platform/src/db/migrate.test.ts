import { migrationChecksum, sqlWithoutComments } from './migrate';

describe('sqlWithoutComments', () => {
  it('drops line and block comments and folds whitespace', () => {
    const sql = `-- The tenant's keys (docs/api/resources.md "Authentication").
CREATE TABLE keys (  -- one per tenant
  id text PRIMARY KEY, /* outer /* nested */ still a comment */ n int
);
`;
    expect(sqlWithoutComments(sql)).toBe('CREATE TABLE keys ( id text PRIMARY KEY, n int );');
  });

  it('keeps string literals, quoted identifiers and dollar-quoted bodies as written', () => {
    const sql = [
      "SELECT '--  not a comment', 'it''s  /* kept */', E'\\' -- still a string', \"a--b\";",
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$',
      'BEGIN  -- part of the body',
      '  RETURN $1; END',
      '$body$; -- gone',
    ].join('\n');
    expect(sqlWithoutComments(sql)).toBe(
      "SELECT '--  not a comment', 'it''s  /* kept */', E'\\' -- still a string', \"a--b\"; " +
        'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$\nBEGIN  -- part of the body\n  RETURN $1; END\n$body$;',
    );
  });

  it('gives a comment-only change the same checksum and a SQL change another one', () => {
    const sql = '-- spec\nCREATE TABLE t (id int);\n';
    expect(migrationChecksum(sql)).toMatch(/^v2:[0-9a-f]{64}$/);
    expect(
      migrationChecksum('-- docs/architecture.md "Transactions"\nCREATE TABLE t (id int); -- why\n'),
    ).toBe(migrationChecksum(sql));
    expect(migrationChecksum('CREATE TABLE t (id bigint);')).not.toBe(migrationChecksum(sql));
    expect(migrationChecksum("SELECT 'a  b'")).not.toBe(migrationChecksum("SELECT 'a b'"));
  });
});
