import { type LiteralSyntax, literal, SAMPLE_ENV, type SampleLanguage, sdkCall } from './language';

const TS_SYNTAX: LiteralSyntax = {
  key: (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)),
  true: 'true',
  false: 'false',
  null: 'null',
};

const methodOf = (operationId: string) => operationId;

/** The operation through @qr-payout/client (client/README.md): an ES module awaiting at the top. */
export const TYPESCRIPT: SampleLanguage = {
  id: 'typescript',
  label: 'TypeScript',
  sdkMethod: methodOf,
  render(op) {
    const call = sdkCall(op, methodOf(op.operationId), {
      pathValue: (value) => `'${value}'`,
      body: (_op, body, indent) => (body ? literal(body, TS_SYNTAX, indent) : undefined),
      idempotencyKey: '{ idempotencyKey: randomUUID() }',
      style: { indent: '', unit: '  ', comment: ' //' },
    });
    return `${op.idempotent ? "import { randomUUID } from 'node:crypto';\n" : ''}import { createClient } from '@qr-payout/client';

const client = createClient({
  baseUrl: process.env.${SAMPLE_ENV.baseUrl} ?? '${SAMPLE_ENV.defaultBaseUrl}',
  apiKey: process.env.${SAMPLE_ENV.apiKey} ?? '',
});
// A refused call throws QrPayoutError: status, tag, message, docsUrl, requestId.
const answer = await ${call};
console.log(JSON.stringify(answer, null, 2));
`;
  },
};
