// The package's public surface (`@qr-payout/gateway`): the start function, and what the sandbox and
// the client's generator read (test QR codes, the OpenAPI document). The wiring itself is in start.ts.
export { loadGatewayConfig } from './config';
export { DYNAMIC_PIX_CHARGE, SANDBOX_TEST_QRS, type SandboxTestQr } from './docs/sandbox-test-qrs';
export { buildPublicApp } from './http/app';
export { migrateGateway } from './migrations';
export { buildOpenApiDocument } from './openapi/document';
export { type RunningGateway, type StartGatewayOverrides, startGateway } from './start';
