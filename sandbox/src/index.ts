export { type BannerInfo, formatBanner } from './banner';
export { loadSandboxCredentials, type SandboxCredentials } from './credentials';
export { type EmbeddedPostgres, startEmbeddedDatabases, startEmbeddedPostgres } from './embedded-postgres';
export { DEFAULT_DATA_DIR, type RunningSandbox, type SandboxOptions, startSandbox } from './sandbox';
export { SANDBOX_TENANT_ID } from './sandbox-tenant';
