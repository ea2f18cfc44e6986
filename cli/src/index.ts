export { type Command, type Connection, parseCommandLine, UsageError } from './args';
export { type AdminClient, executeCommand } from './commands';
export { createAdminClient, errorJson, type Io, runPayoutctl } from './run';
