import { API_KEY_HEADER } from '../../http/auth';
import { SAMPLE_ENV, type SampleLanguage } from './language';
import { pathOf, sentBody } from './operations';

/** Single-quoted for a POSIX shell. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The operation as one curl command; the answer's JSON is what it prints. */
export const CURL: SampleLanguage = {
  id: 'curl',
  label: 'curl',
  render(op) {
    const url = `"\${${SAMPLE_ENV.baseUrl}:-${SAMPLE_ENV.defaultBaseUrl}}${pathOf(op)}"`;
    const lines = [`curl -sS ${op.method === 'GET' ? '' : `-X ${op.method} `}${url}`];
    if (op.authenticated) lines.push(`-H "${API_KEY_HEADER}: $${SAMPLE_ENV.apiKey}"`);
    // A new UUID per payment, from the Node.js the sandbox runs on (Debian has no uuidgen by
    // default), as the quick start makes one; your order id makes a retry after a crash safe.
    if (op.idempotent) lines.push(`-H "Idempotency-Key: $(node -p 'crypto.randomUUID()')"`);
    const body = sentBody(op);
    if (body) {
      lines.push("-H 'content-type: application/json'");
      lines.push(`-d ${shellQuoted(JSON.stringify(body, null, 2))}`);
    }
    return `${lines.join(' \\\n  ')}\n`;
  },
};
