import { pascalCase, SAMPLE_ENV, type SampleLanguage, sdkCall } from './language';
import { type SampleOperation, sentBody } from './operations';

/** The SDK's module path (sdk/go/go.mod). */
export const GO_MODULE = 'github.com/qr-payout/qr-payout/sdk/go';

/** oapi-codegen's name of the operation's request body type. */
const bodyType = (op: SampleOperation) => `api.${pascalCase(op.operationId)}JSONRequestBody`;

/**
 * The body as the operation's request body type, read from the example's JSON: the same value as
 * the other samples, optional fields and enums included, without writing Go's pointers by hand.
 */
function bodyStatements(op: SampleOperation): string {
  const body = sentBody(op);
  const type = bodyType(op);
  if (!body) return '';
  const json = JSON.stringify(body, null, 2).replace(/\n/g, '\n\t');
  return `\tvar body ${type}
\tif err := json.Unmarshal([]byte(\`${json}\`), &body); err != nil {
\t\tlog.Fatal(err)
\t}
`;
}

function imports(op: SampleOperation): string {
  const std = ['context', ...(op.idempotent ? ['crypto/rand'] : []), 'encoding/json', 'fmt', 'log', 'os'];
  const sdk = [`qrpayout "${GO_MODULE}"`, ...(op.body ? [`"${GO_MODULE}/api"`] : [])];
  return `import (\n${std.map((p) => `\t"${p}"`).join('\n')}\n\n${sdk.map((p) => `\t${p}`).join('\n')}\n)`;
}

/** The operation through the Go SDK's qrpayout.Client (sdk/go/README.md): a whole `package main`. */
export const GO: SampleLanguage = {
  id: 'go',
  label: 'Go',
  sdkMethod: pascalCase,
  render(op) {
    const call = sdkCall(op, pascalCase(op.operationId), {
      leading: [{ text: () => 'context.Background()' }],
      pathValue: (value) => JSON.stringify(value),
      query: () => ({
        text: () => 'nil',
        comment: `no filters: api.${pascalCase(op.operationId)}Params has them`,
      }),
      // An optional body left empty (the replay's) is the type's zero value.
      body: (_op, body) => (op.body ? (body ? 'body' : `${bodyType(op)}{}`) : undefined),
      idempotencyKey: 'qrpayout.WithIdempotencyKey(rand.Text())',
      style: { indent: '\t', unit: '\t', comment: ' //' },
    });
    return `package main

${imports(op)}

func main() {
\tbaseURL := os.Getenv("${SAMPLE_ENV.baseUrl}")
\tif baseURL == "" {
\t\tbaseURL = "${SAMPLE_ENV.defaultBaseUrl}"
\t}
\tclient, err := qrpayout.NewClient(qrpayout.Options{BaseURL: baseURL, APIKey: os.Getenv("${SAMPLE_ENV.apiKey}")})
\tif err != nil {
\t\tlog.Fatal(err)
\t}
${bodyStatements(op)}\tanswer, err := ${call}
\tif err != nil {
\t\tlog.Fatal(err) // a *qrpayout.Error: Status, Tag, Message, DocsURL, RequestID
\t}
\tout, err := json.MarshalIndent(answer, "", "  ")
\tif err != nil {
\t\tlog.Fatal(err)
\t}
\tfmt.Println(string(out))
}
`;
  },
};
