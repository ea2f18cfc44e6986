import { Code, ConnectError, createClient, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { AdminService } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import { ErrorDetailSchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import { type Connection, parseCommandLine, UsageError } from './args';
import { type AdminClient, executeCommand } from './commands';
import { recordSandboxSigningSecret } from './sandbox-secret';
import { triggerSandboxEvent } from './trigger';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const CALL_TIMEOUT_MS = 30_000;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

export function createAdminClient(connection: Connection): AdminClient {
  const bearer: Interceptor = (next) => (req) => {
    req.header.set('authorization', `Bearer ${connection.token}`);
    return next(req);
  };
  const transport = createConnectTransport({
    baseUrl: connection.adminUrl,
    httpVersion: '1.1',
    interceptors: [bearer],
    defaultTimeoutMs: CALL_TIMEOUT_MS,
  });
  return createClient(AdminService, transport);
}

function snakeCase(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * What to do when no admin API answered: the URL tried and how to change it (a sandbox started on
 * other ports, `ADMIN_PORT=9081 npm start`, prints its own as "Admin API").
 */
export function unreachableHint(adminUrl: string): string {
  return `no admin API answered at ${adminUrl}; set PAYOUT_ADMIN_URL or --admin-url to the gateway's admin URL (the sandbox prints it at start, on its Admin API line)`;
}

/**
 * The error as JSON: the RPC code and message, the offending field when the server named one, and
 * `retry_after_seconds` when it said how long to wait (its Retry-After: a throttled token, a
 * replay too soon). `unavailable` (nothing listening, DNS, connection reset) adds what to do,
 * given the URL tried.
 */
export function errorJson(
  err: unknown,
  adminUrl?: string,
): { error: { code: string; message: string; field?: string; retry_after_seconds?: number } } {
  const e = ConnectError.from(err);
  const field = e.findDetails(ErrorDetailSchema)[0]?.field;
  const retryAfter = e.metadata.get('retry-after');
  const message =
    e.code === Code.Unavailable && adminUrl ? `${e.rawMessage}: ${unreachableHint(adminUrl)}` : e.rawMessage;
  return {
    error: {
      code: snakeCase(Code[e.code] ?? 'Unknown'),
      message,
      ...(field ? { field } : {}),
      ...(retryAfter !== null && /^\d+$/.test(retryAfter) ? { retry_after_seconds: Number(retryAfter) } : {}),
    },
  };
}

/** payoutctl: parse, call the admin API, print JSON. Returns the exit code. */
export async function runPayoutctl(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: Io,
  makeClient: (c: Connection) => AdminClient = createAdminClient,
  cwd: string = process.cwd(),
  fetchPublic: typeof fetch = fetch,
): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`${JSON.stringify({ error: { code: 'usage', message: err.message } })}\n`);
    return EXIT_USAGE;
  }
  if (parsed.type === 'help') {
    io.stdout(parsed.text);
    return EXIT_OK;
  }
  if (parsed.type === 'trigger') {
    const outcome = await triggerSandboxEvent(parsed.connection, parsed.command, fetchPublic);
    if (!outcome.ok) {
      io.stderr(`${JSON.stringify({ error: outcome.error })}\n`);
      return EXIT_FAILURE;
    }
    io.stdout(`${JSON.stringify(outcome.body, null, 2)}\n`);
    return EXIT_OK;
  }
  const { command, connection } = parsed;
  try {
    const result = await executeCommand(makeClient(connection), command);
    if (command.kind === 'secret rotate') {
      await recordSandboxSigningSecret({
        env,
        cwd,
        tenantId: command.tenantId,
        adminToken: connection.token,
        signingSecret: (result as { signing_secret: string }).signing_secret,
      });
    }
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_OK;
  } catch (err) {
    io.stderr(`${JSON.stringify(errorJson(err, connection.adminUrl))}\n`);
    return EXIT_FAILURE;
  }
}
