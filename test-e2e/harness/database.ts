import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface RunDatabase {
  /** Connection string of the fresh database. */
  url: string;
  name: string;
  /** With serviceRoles: each schema-owning service's connection string, as its own role. */
  serviceUrls?: Record<SchemaOwner, string>;
  drop(): Promise<void>;
}

/** Runs `fn` on one connection to `serverUrl` (as its user, in its database), then closes it. */
export async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
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
 * why it can be spliced into the DDL that has no parameter form (so are the roles' names and
 * passwords).
 */
export async function createRunDatabase(
  serverUrl: string,
  opts: { serviceRoles?: boolean } = {},
): Promise<RunDatabase> {
  const name = `e2e_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const roles = opts.serviceRoles ? await createServiceRoles(url, name) : undefined;
  return {
    url: url.toString(),
    name,
    ...(roles ? { serviceUrls: roles.urls } : {}),
    // WITH (FORCE) ends the sessions a killed child may have left behind; then the roles can go.
    drop: async () => {
      await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      if (roles)
        await onServer(serverUrl, (client) => client.query(`DROP ROLE IF EXISTS ${roles.names.join(', ')}`));
    },
  };
}

/** The services that own a schema, each named as its schema (DB_SCHEMA's default). */
export const SCHEMA_OWNERS = ['gateway', 'fx', 'payout', 'webhook'] as const;
export type SchemaOwner = (typeof SCHEMA_OWNERS)[number];

/**
 * docs/operators.md "One database role per service": for each service a login role of its own that
 * owns its schema, made beforehand, and has no CREATE on the database, so it can touch nothing else.
 */
async function createServiceRoles(
  databaseUrl: URL,
  database: string,
): Promise<{ names: string[]; urls: Record<SchemaOwner, string> }> {
  const urls = {} as Record<SchemaOwner, string>;
  const names: string[] = [];
  await onServer(databaseUrl.toString(), async (client) => {
    for (const service of SCHEMA_OWNERS) {
      const role = `${database}_${service}`;
      const password = randomBytes(12).toString('hex');
      await client.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      names.push(role);
      await client.query(`CREATE SCHEMA ${service} AUTHORIZATION ${role}`);
      const url = new URL(databaseUrl);
      url.username = role;
      url.password = password;
      urls[service] = url.toString();
    }
  });
  return { names, urls };
}
