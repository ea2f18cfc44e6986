import { type LiteralSyntax, literal, SAMPLE_ENV, type SampleLanguage, sdkCall, snakeCase } from './language';

const PYTHON_SYNTAX: LiteralSyntax = { key: JSON.stringify, true: 'True', false: 'False', null: 'None' };

/** The operation through the Python SDK's QrPayoutClient (sdk/python/README.md). */
export const PYTHON: SampleLanguage = {
  id: 'python',
  label: 'Python',
  sdkMethod: snakeCase,
  render(op) {
    const call = sdkCall(op, snakeCase(op.operationId), {
      pathValue: (value) => JSON.stringify(value),
      body: (_op, body, indent) => (body ? literal(body, PYTHON_SYNTAX, indent, '    ') : undefined),
      idempotencyKey: 'idempotency_key=str(uuid.uuid4())',
      style: { indent: '    ', unit: '    ', comment: '  #' },
    });
    return `import os
${op.idempotent ? 'import uuid\n' : ''}
from qr_payout import QrPayoutClient

BASE_URL = os.environ.get("${SAMPLE_ENV.baseUrl}", "${SAMPLE_ENV.defaultBaseUrl}")

with QrPayoutClient(BASE_URL, os.environ["${SAMPLE_ENV.apiKey}"]) as client:
    # A refused call raises QrPayoutError: status, tag, message, docs_url, request_id.
    answer = ${call}
    print(answer.to_dict())
`;
  },
};
