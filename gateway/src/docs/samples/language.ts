import type { SampleOperation } from './operations';
import { sentBody } from './operations';

// The one shape of a sample language (docs/api/README.md "Samples"): how an operation becomes a
// program in it, and which SDK method it calls there.

/** The environment every sample reads, as the quick starts do. */
export const SAMPLE_ENV = {
  baseUrl: 'QR_PAYOUT_BASE_URL',
  apiKey: 'QR_PAYOUT_API_KEY',
  /** The base URL when QR_PAYOUT_BASE_URL is unset: `npm start`'s. */
  defaultBaseUrl: 'http://127.0.0.1:8080',
} as const;

/** Said beside every new Idempotency-Key (docs/api/idempotency.md "The Idempotency-Key"). */
export const NEW_KEY_COMMENT = 'a new key per payment; your order id makes a retry after a crash safe';

export interface SampleLanguage {
  readonly id: 'curl' | 'typescript' | 'python' | 'go';
  /** The code block's heading. */
  readonly label: string;
  /**
   * The SDK method an operation maps to, by the SDK's naming convention; none for curl. The samples
   * test checks each exists in its SDK (samples.test.ts).
   */
  readonly sdkMethod?: (operationId: string) => string;
  /** The sample: a whole program (curl: a shell command) reading SAMPLE_ENV. */
  render(op: SampleOperation): string;
}

/** `getWebhookDelivery` → `GetWebhookDelivery`. */
export function pascalCase(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/** `getWebhookDelivery` → `get_webhook_delivery`. */
export function snakeCase(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export interface LiteralSyntax {
  readonly key: (name: string) => string;
  readonly true: string;
  readonly false: string;
  readonly null: string;
}

/** A JSON value as a literal of a language whose objects and arrays look like JSON's. */
export function literal(value: unknown, syntax: LiteralSyntax, indent = '', unit = '  '): string {
  const inner = indent + unit;
  if (value === null) return syntax.null;
  if (value === true) return syntax.true;
  if (value === false) return syntax.false;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${literal(item, syntax, inner, unit)},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([k, v]) => `${inner}${syntax.key(k)}: ${literal(v, syntax, inner, unit)},`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export interface CallArgument {
  /** The argument's text, given the indentation of its line. */
  readonly text: (indent: string) => string;
  /** A comment after the argument's line. */
  readonly comment?: string;
}

/**
 * `callee(a, b)` on one line when it is short and says nothing more; otherwise one argument a line,
 * each with a trailing comma (valid in TypeScript, Python and Go alike).
 */
export function callExpression(
  callee: string,
  args: readonly CallArgument[],
  /** `comment`: what starts a line's comment, its spaces before included (` //`, `  #`). */
  style: { indent: string; unit: string; comment: string },
): string {
  const inner = style.indent + style.unit;
  const flat = args.map((arg) => arg.text(style.indent));
  const oneLine = `${callee}(${flat.join(', ')})`;
  if (args.every((arg) => !arg.comment) && !oneLine.includes('\n') && oneLine.length <= 80) return oneLine;
  const lines = args.map(
    (arg) => `${inner}${arg.text(inner)},${arg.comment ? `${style.comment} ${arg.comment}` : ''}`,
  );
  return `${callee}(\n${lines.join('\n')}\n${style.indent})`;
}

/** How an SDK's method takes an operation's parts, in the order of its arguments. */
export interface SdkCallForm {
  /** Arguments before the path parameters (Go's context). */
  readonly leading?: readonly CallArgument[];
  readonly pathValue: (value: string) => string;
  /** The lists' query, when the method takes it as an argument of its own (Go). */
  readonly query?: (op: SampleOperation) => CallArgument;
  /** The body argument, given the indentation of its line; undefined: the method gets none. */
  readonly body: (
    op: SampleOperation,
    body: Readonly<Record<string, unknown>> | undefined,
    indent: string,
  ) => string | undefined;
  /** The argument giving a new Idempotency-Key. */
  readonly idempotencyKey: string;
  /** Where arguments start and how they indent, and the comment marker (see callExpression). */
  readonly style: { indent: string; unit: string; comment: string };
}

/** `client.<method>(...)`: the operation's call through an SDK, with the example's values. */
export function sdkCall(op: SampleOperation, method: string, form: SdkCallForm): string {
  const body = sentBody(op);
  const bodyArgument = form.body(op, body, form.style.indent + form.style.unit) !== undefined;
  const args: CallArgument[] = [
    ...(form.leading ?? []),
    ...op.pathParams.map((p) => ({ text: () => form.pathValue(p.value) })),
    ...(op.query && form.query ? [form.query(op)] : []),
    ...(bodyArgument ? [{ text: (indent: string) => form.body(op, body, indent) ?? '' }] : []),
    ...(op.idempotent ? [{ text: () => form.idempotencyKey, comment: NEW_KEY_COMMENT }] : []),
  ];
  return callExpression(`client.${method}`, args, form.style);
}
