// Mutual TLS on internal gRPC (docs/operators.md "Mutual TLS between services"): one certificate
// per process, presented as a server and as a client, and one CA bundle its peers are checked
// against. Files are read again every minute, so a certificate cert-manager renews is used
// without a restart.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { type ConfigReader, givenValue } from '../config';

/** Where a process's certificate, its key and the CA bundle of its peers are (PEM files). */
export type GrpcTls = {
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
  /** How often the files are read again (a renewed certificate is in use within this); 60 s. */
  readonly refreshMs?: number;
};

const CERT = 'GRPC_TLS_CERT_FILE';
const KEY = 'GRPC_TLS_KEY_FILE';
const CA = 'GRPC_TLS_CA_FILE';

const DEFAULT_REFRESH_MS = 60_000;

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/**
 * GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE, for a loadConfig spec: all three
 * (mTLS on every gRPC server and client of the process) or none (cleartext). Checked at start so a
 * wrong file fails the process, not every call: each is read and parsed, the key is the
 * certificate's, the certificate chains to the CA bundle, is valid now, and may serve as both a
 * server and a client certificate.
 */
export function grpcTlsSetting(): ConfigReader<GrpcTls | undefined> {
  return {
    name: `${CERT}, ${KEY}, ${CA}`,
    secret: false,
    read(env) {
      const files = {
        certFile: givenValue(env, CERT),
        keyFile: givenValue(env, KEY),
        caFile: givenValue(env, CA),
      };
      const set = Object.values(files).filter((file) => file !== undefined).length;
      if (set === 0) return { ok: true, value: undefined };
      if (set < 3) {
        return { ok: false, problem: `${CERT}, ${KEY} and ${CA} must be set together (mTLS) or not at all` };
      }
      const tls = files as GrpcTls;
      const problem = checkTlsFiles(tls);
      return problem ? { ok: false, problem } : { ok: true, value: Object.freeze(tls) };
    },
  };
}

/** Why the files cannot serve mTLS, or undefined when they can. */
function checkTlsFiles(tls: GrpcTls): string | undefined {
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new TlsFileProblem(
        `${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  };
  try {
    const chain = certificates(CERT, tls.certFile, read(CERT, tls.certFile));
    const authorities = certificates(CA, tls.caFile, read(CA, tls.caFile));
    const leaf = chain[0]!;
    let key: ReturnType<typeof createPrivateKey>;
    try {
      key = createPrivateKey(read(KEY, tls.keyFile));
    } catch (err) {
      if (err instanceof TlsFileProblem) throw err;
      throw new TlsFileProblem(`${KEY}: ${tls.keyFile} holds no private key`);
    }
    if (!leaf.checkPrivateKey(key)) {
      throw new TlsFileProblem(`${KEY}: ${tls.keyFile} is not the key of the certificate in ${tls.certFile}`);
    }
    const now = Date.now();
    if (Date.parse(leaf.validTo) < now || Date.parse(leaf.validFrom) > now) {
      throw new TlsFileProblem(
        `${CERT}: the certificate in ${tls.certFile} is valid from ${leaf.validFrom} to ${leaf.validTo} only`,
      );
    }
    const usages = leaf.keyUsage;
    if (usages && !(usages.includes(SERVER_AUTH) && usages.includes(CLIENT_AUTH))) {
      throw new TlsFileProblem(
        `${CERT}: the certificate in ${tls.certFile} must allow both server and client authentication (extended key usage)`,
      );
    }
    if (!chainsTo(chain, authorities)) {
      throw new TlsFileProblem(
        `${CERT}: the certificate in ${tls.certFile} is not signed by a CA of ${tls.caFile}`,
      );
    }
    return undefined;
  } catch (err) {
    if (err instanceof TlsFileProblem) return err.message;
    throw err;
  }
}

class TlsFileProblem extends Error {}

/** Every certificate of a PEM text, in order. */
function certificates(name: string, file: string, pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new TlsFileProblem(`${name}: ${file} holds no certificate`);
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch {
    throw new TlsFileProblem(`${name}: ${file} holds a certificate that cannot be read`);
  }
}

/** The certificate (followed by its intermediates) was issued, link by link, by one of the CAs. */
function chainsTo(chain: X509Certificate[], authorities: X509Certificate[]): boolean {
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (authorities.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey))) return true;
    const next = chain[i + 1];
    if (!next || !(cert.checkIssued(next) && cert.verify(next.publicKey))) return false;
  }
  return false;
}

// One provider per set of files: every server and channel of the process shares its reads.
const providers = new Map<string, grpc.experimental.FileWatcherCertificateProvider>();

function provider(tls: GrpcTls): grpc.experimental.FileWatcherCertificateProvider {
  const refreshIntervalMs = tls.refreshMs ?? DEFAULT_REFRESH_MS;
  const key = [tls.certFile, tls.keyFile, tls.caFile, refreshIntervalMs].join('\n');
  let found = providers.get(key);
  if (!found) {
    found = new grpc.experimental.FileWatcherCertificateProvider({
      certificateFile: tls.certFile,
      privateKeyFile: tls.keyFile,
      caCertificateFile: tls.caFile,
      refreshIntervalMs,
    });
    providers.set(key, found);
  }
  return found;
}

/** A server's credentials: its certificate, and a client certificate from the CA required. */
export function serverCredentials(tls: GrpcTls | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  const files = provider(tls);
  return grpc.experimental.createCertificateProviderServerCredentials(files, files, true);
}

/**
 * A channel's credentials under mTLS: the server's certificate checked against the CA bundle and
 * the name dialled (grpc-js's usual check), ours presented as the client's.
 */
export function mutualTlsChannelCredentials(tls: GrpcTls): grpc.ChannelCredentials {
  const files = provider(tls);
  return grpc.experimental.createCertificateProviderChannelCredentials(files, files);
}
