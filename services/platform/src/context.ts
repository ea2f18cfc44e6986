import { AsyncLocalStorage } from 'node:async_hooks';

// The request id (and tenant) follow a request across awaits and, through the `x-request-id`
// header set by the gRPC client interceptor, across service hops.
type RequestContext = { readonly requestId: string; readonly tenantId?: string };

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(context: RequestContext, fn: () => T): T {
    return storage.run(context, fn);
  },
  get(): RequestContext | undefined {
    return storage.getStore();
  },
};
