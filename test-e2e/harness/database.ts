import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface RunDatabase {
  /** Connection string of the fresh database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database for one run on the server of `serverUrl`, so parallel and repeated
 * runs never share a schema. The name is generated here (hex only), never taken from input, which is
 * why it can be spliced into the DDL that has no parameter form.
 */
export async function createRunDatabase(serverUrl: string): Promise<RunDatabase> {
  const name = `e2e_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // WITH (FORCE) ends the sessions a killed child may have left behind.
    drop: () =>
      onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => {},
      ),
  };
}
