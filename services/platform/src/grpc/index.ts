// @qr-payout/platform/grpc: serve and call gRPC (grpc-js on the wire, connect's types in the code).
export { closeGrpcClients, createGrpcClient } from './client';
export { type RunningGrpcService, type ServiceWorker, serveGrpc } from './serve';
export { createGrpcServer } from './server';
export { grpcClientSettings, grpcServiceSettings } from './service-settings';
export type { GrpcTls } from './tls';
