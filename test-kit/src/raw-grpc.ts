// A unary gRPC call through a bare grpc-js client with the credentials a test chooses (cleartext,
// TLS without a client certificate, another CA's certificate): what the mTLS tests send where the
// platform's own client would refuse to, or would bring its own certificate.
import * as grpcJs from '@grpc/grpc-js';

export type RawUnaryCall = {
  /** The server, as an http(s) base URL (`http://127.0.0.1:50051`) or a grpc-js target (`127.0.0.1:50051`). */
  target: string;
  /** `/<package.Service>/<Method>`. */
  path: string;
  /** The request message, already serialized. */
  request: Uint8Array;
  credentials: grpcJs.ChannelCredentials;
  /** 5 s unless given. */
  timeoutMs?: number;
};

/** The status code the call ended with: OK, the service's own verdict, or the transport's (UNAVAILABLE). */
export function rawUnaryCall(call: RawUnaryCall): Promise<grpcJs.status> {
  const target = /^https?:\/\//.test(call.target) ? new URL(call.target).host : call.target;
  const client = new grpcJs.Client(target, call.credentials);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      call.path,
      (bytes: Uint8Array) => Buffer.from(bytes),
      (bytes: Buffer) => bytes,
      call.request,
      new grpcJs.Metadata(),
      { deadline: Date.now() + (call.timeoutMs ?? 5_000) },
      (err) => {
        client.close();
        resolve(err ? err.code : grpcJs.status.OK);
      },
    );
  });
}
