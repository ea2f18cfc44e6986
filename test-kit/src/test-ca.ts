// A throwaway certificate authority for tests of mTLS between services (docs/operators.md "Mutual
// TLS between services"): a CA, and certificates it signs for a component's names and addresses,
// usable as both server and client certificate, as the chart's cert-manager Certificates are.
// Made with the openssl command (Debian's), P-256 keys, valid for two days.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A component's files, the shape the platform's GrpcTls takes. */
export type TestTlsFiles = { certFile: string; keyFile: string; caFile: string };

export type TestCa = {
  /** The directory of every file. */
  readonly dir: string;
  /** The CA's certificate (the bundle a peer is checked against). */
  readonly caFile: string;
  /**
   * A certificate and key for `name` (its CN), with these DNS names and IP addresses as subject
   * alternative names; `usages` (default both) its extended key usages.
   */
  issue(
    name: string,
    sans: { dns?: readonly string[]; ip?: readonly string[] },
    usages?: readonly ('serverAuth' | 'clientAuth')[],
  ): TestTlsFiles;
};

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A new CA in `dir` (a new temporary directory when unset); `label` names it in its CN. */
export function createTestCa(label = 'qr-payout test CA', dir?: string): TestCa {
  const root = dir ?? mkdtempSync(path.join(os.tmpdir(), 'qr-payout-ca-'));
  mkdirSync(root, { recursive: true });
  const caFile = path.join(root, 'ca.crt');
  const caKey = path.join(root, 'ca.key');
  openssl([
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '2',
    '-subj',
    `/CN=${label}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    caKey,
    '-out',
    caFile,
  ]);
  let serial = 0;
  return {
    dir: root,
    caFile,
    issue(name, sans, usages = ['serverAuth', 'clientAuth']) {
      const base = path.join(root, `${name}-${++serial}`);
      const files = { certFile: `${base}.crt`, keyFile: `${base}.key`, caFile };
      const csr = `${base}.csr`;
      const extFile = `${base}.ext`;
      const names = [...(sans.dns ?? []).map((d) => `DNS:${d}`), ...(sans.ip ?? []).map((ip) => `IP:${ip}`)];
      const ext = [
        'basicConstraints=critical,CA:FALSE',
        'keyUsage=critical,digitalSignature',
        `extendedKeyUsage=${usages.join(',')}`,
        ...(names.length ? [`subjectAltName=${names.join(',')}`] : []),
      ];
      writeFileSync(extFile, `${ext.join('\n')}\n`);
      openssl(['req', '-new', ...EC_KEY, '-subj', `/CN=${name}`, '-keyout', files.keyFile, '-out', csr]);
      openssl([
        'x509',
        '-req',
        '-in',
        csr,
        '-CA',
        caFile,
        '-CAkey',
        caKey,
        '-set_serial',
        String(Date.now() * 1000 + serial),
        '-days',
        '2',
        '-extfile',
        extFile,
        '-out',
        files.certFile,
      ]);
      return files;
    },
  };
}
