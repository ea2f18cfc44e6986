import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { SANDBOX_TEST_AMOUNTS } from '../docs/sandbox-test-qrs';
import { ERROR_REGISTRY, isErrorTag } from '../errors/registry';
import { buildOpenApiDocument, SANDBOX_SERVER_URL, serverUrlFromDocsUrl } from './document';
import { EXAMPLE_WALLET_CURRENCIES } from './examples';
import { errorTagsOf, TAGS } from './reference';

// The document answers the integrator's questions by itself: every body and parameter has an
// example that its own schema accepts (so "Try it out" sends valid values), every operation is
// tagged and described, every error response shows each error it can carry in the error body
// (docs/api/errors.md "The error body"), and every operation links the catalogue entries of
// those errors.

type Json = Record<string, unknown>;
type MediaType = { schema?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  tags?: string[];
  description?: string;
  parameters?: { name: string; schema?: unknown; example?: unknown; required?: boolean }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaType> }>;
};

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json & {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, unknown> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, 'openapi.json');

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every operation of paths and webhooks with its JSON pointer. */
function operations(): { where: string; pointer: string; op: Operation }[] {
  return (['paths', 'webhooks'] as const).flatMap((section) =>
    Object.entries(doc[section]).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        where: `${method.toUpperCase()} ${path}`,
        pointer: `/${section}/${escapePointer(path)}/${method}`,
        op,
      })),
    ),
  );
}

/** Every media type with its pointer: request bodies, responses (inline and shared). */
function mediaTypes(): { where: string; pointer: string; media: MediaType }[] {
  const found: { where: string; pointer: string; media: MediaType }[] = [];
  const add = (where: string, pointer: string, content: Record<string, MediaType> | undefined) => {
    for (const [type, media] of Object.entries(content ?? {}))
      found.push({ where: `${where} ${type}`, pointer: `${pointer}/content/${escapePointer(type)}`, media });
  };
  for (const { where, pointer, op } of operations()) {
    add(`${where} request`, `${pointer}/requestBody`, op.requestBody?.content);
    for (const [status, response] of Object.entries(op.responses))
      add(`${where} ${status}`, `${pointer}/responses/${status}`, response.content);
  }
  for (const [name, response] of Object.entries(doc.components.responses))
    add(
      `components.responses.${name}`,
      `/components/responses/${name}`,
      (response as Operation['requestBody'])?.content,
    );
  return found;
}

function validate(pointer: string, value: unknown): string[] {
  const check = ajv.getSchema(`openapi.json#${pointer}`) ?? ajv.compile({ $ref: `openapi.json#${pointer}` });
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('OpenAPI document', () => {
  it("tells execute and pay readers the sandbox's test amounts, each of the catalogue's", () => {
    const paths = buildOpenApiDocument().paths as Record<string, { post?: { description?: string } }>;
    for (const path of ['/v1/execute', '/v1/pay']) {
      const description = paths[path]?.post?.description ?? '';
      for (const amount of SANDBOX_TEST_AMOUNTS.filter((a) => /^\d\d$/.test(a.ends_in))) {
        expect([path, description]).toEqual([path, expect.stringContaining(`${amount.ends_in} `)]);
        if (amount.error_code) expect(description).toContain(`\`${amount.error_code}\``);
      }
    }
  });

  it('has an example for every body, each valid against its schema', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { where, pointer, media } of mediaTypes()) {
      const examples = Object.entries(media.examples ?? {});
      if (examples.length === 0) problems.push(`${where}: no example`);
      for (const [name, { value }] of examples) {
        checked++;
        for (const e of validate(`${pointer}/schema`, value)) problems.push(`${where} example ${name}: ${e}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('has an example for every path and required header parameter, valid against its schema', () => {
    const problems: string[] = [];
    for (const { where, pointer, op } of operations()) {
      (op.parameters ?? []).forEach((parameter, i) => {
        if (parameter.example === undefined) {
          // Idempotency-Key has none on purpose (document.ts): a prefilled key is a replay.
          if (parameter.required && parameter.name !== 'Idempotency-Key')
            problems.push(`${where} ${parameter.name}: no example`);
          return;
        }
        for (const e of validate(`${pointer}/parameters/${i}/schema`, parameter.example))
          problems.push(`${where} ${parameter.name}: ${e}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('shows each error response in the spec body, one example per error, named by its tag', () => {
    const problems: string[] = [];
    for (const { where, media } of mediaTypes()) {
      if ((media.schema as { $ref?: string })?.$ref !== '#/components/schemas/ErrorBody') continue;
      for (const [name, { value }] of Object.entries(media.examples ?? {})) {
        if (!isErrorTag(name)) {
          problems.push(`${where}: example ${name} is not an error tag`);
          continue;
        }
        const body = value as { _tag: string; docs_url: string };
        if (body._tag !== name) problems.push(`${where}: example ${name} carries ${body._tag}`);
        if (!body.docs_url.endsWith(`/docs/errors#${name}`)) problems.push(`${where}: ${name} docs_url`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('checks each inline error response against the status of its tags', () => {
    const problems: string[] = [];
    for (const { where, op } of operations())
      for (const [status, response] of Object.entries(op.responses)) {
        const examples = response.content?.['application/json']?.examples ?? {};
        for (const name of Object.keys(examples))
          if (isErrorTag(name) && String(ERROR_REGISTRY[name].status) !== status)
            problems.push(`${where} ${status}: ${name} is ${ERROR_REGISTRY[name].status}`);
      }
    expect(problems).toEqual([]);
  });

  it('tags every operation by resource with a described tag, and describes every operation', () => {
    const declared = new Set((doc.tags as { name: string; description: string }[]).map((t) => t.name));
    expect([...declared]).toEqual(TAGS.map((t) => t.name));
    for (const name of [
      'Payments',
      'Transactions',
      'Instructions',
      'Schemes',
      'FX',
      'Webhook endpoints',
      'Webhook deliveries',
      'Sandbox',
    ])
      expect(declared).toContain(name);
    const problems: string[] = [];
    for (const { where, op } of operations()) {
      if (!op.tags?.length) problems.push(`${where}: no tag`);
      for (const tag of op.tags ?? [])
        if (!declared.has(tag)) problems.push(`${where}: undeclared tag ${tag}`);
      if (!op.description) problems.push(`${where}: no description`);
    }
    expect(problems).toEqual([]);
  });

  it("links from each operation's description to the catalogue entry of every error it can return", () => {
    const problems: string[] = [];
    for (const { where, op } of operations()) {
      const tags = errorTagsOf(op as never, doc.components.responses);
      for (const tag of tags)
        if (!op.description?.includes(`](/docs/errors#${tag})`)) problems.push(`${where}: no link to ${tag}`);
      for (const [, linked] of op.description?.matchAll(/\]\(\/docs\/errors#(\w+)\)/g) ?? [])
        if (!isErrorTag(linked ?? '')) problems.push(`${where}: links unknown ${linked}`);
    }
    expect(problems).toEqual([]);
    const resolve = doc.paths['/v1/resolve']?.post;
    expect(resolve?.description).toContain('[`AmountOutOfRange`](/docs/errors#AmountOutOfRange)');
    expect(resolve?.description).toContain('[`RateLimitError`](/docs/errors#RateLimitError)');
  });

  it("tells execute's reader to take instruction_id from resolve, and shows a placeholder, not an id", () => {
    const execute = doc.paths['/v1/execute']?.post;
    expect(execute?.description).toContain('`instruction_id` is the `instruction.id` of your resolve answer');
    const examples = Object.values(execute?.requestBody?.content['application/json']?.examples ?? {});
    for (const example of examples) {
      expect((example.value as { instruction_id: string }).instruction_id).toBe(
        'ins_REPLACE_WITH_RESOLVE_INSTRUCTION_ID',
      );
    }
    expect(examples.length).toBeGreaterThan(0);
  });

  it('sends a quoted wallet currency from "Try it out", never a made-up one', () => {
    const quoted = EXAMPLE_WALLET_CURRENCIES.map((c) => c.code);
    for (const path of ['/v1/resolve', '/v1/pay']) {
      const examples = Object.values(
        doc.paths[path]?.post?.requestBody?.content['application/json']?.examples ?? {},
      );
      const first = examples[0]?.value as { wallet_currency?: string };
      expect(quoted).toContain(first.wallet_currency);
    }
    const schemas = doc.components as unknown as { schemas: Record<string, { properties: Json }> };
    const walletCurrency = schemas.schemas.ResolveRequest?.properties.wallet_currency as {
      examples: string[];
    };
    expect(quoted).toEqual(expect.arrayContaining(walletCurrency.examples));
  });

  it('defines each resource and shared shape once, in components, and refers to it everywhere else', () => {
    const json = JSON.stringify(doc);
    const schemas = (doc.components as unknown as { schemas: Record<string, { required?: string[] }> })
      .schemas;
    const shapes = [
      'Instruction',
      'Transaction',
      'Quote',
      'Creditor',
      'WebhookEndpoint',
      'WebhookDelivery',
      'WebhookDeliveryAttempt',
      'ErrorBody',
      'Scheme',
      'WalletCurrency',
      'TransactionResult',
      'TransactionError',
      'TransactionQuote',
    ];
    for (const name of shapes) {
      // An object's `required` list is as good as its fingerprint: written out once means once here.
      const required = JSON.stringify(schemas[name]?.required);
      expect([name, json.split(required).length - 1]).toEqual([name, 1]);
    }
    for (const name of [...shapes, 'Money', 'Currency', 'TransactionStatus', 'RetryStrategy'])
      expect([name, json.includes(`"$ref":"#/components/schemas/${name}"`)]).toEqual([name, true]);
    const pay = schemas.PayResponse as unknown as { properties: Record<string, { $ref?: string }> };
    expect(pay.properties.transaction?.$ref).toBe('#/components/schemas/Transaction');
    expect(pay.properties.instruction?.$ref).toBe('#/components/schemas/Instruction');
  });

  it('refers to Currency only where a currency is meant, never from an id, cursor or header', () => {
    const misnamed: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods))
        for (const param of op.parameters ?? [])
          if (JSON.stringify(param.schema ?? {}).includes('#/components/schemas/Currency'))
            misnamed.push(`${method} ${path} ${param.name}`);
    expect(misnamed).toEqual([]);
    const instruction = JSON.stringify(
      (doc.components as unknown as { schemas: Record<string, unknown> }).schemas.Instruction,
    );
    expect(instruction).toContain('#/components/schemas/Currency');
  });

  it('documents the events as webhooks with the signature header', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'transaction.completed',
      'transaction.failed',
      'webhook.ping',
    ]);
    for (const item of Object.values(doc.webhooks)) {
      expect(item.post?.parameters?.map((p) => p.name)).toContain('Service-Signature');
      expect(item.post?.description).toContain('docs/api/webhooks.md');
    }
  });

  it('names the same origin first, then the public URL when configured, else the sandbox', () => {
    expect(buildOpenApiDocument().servers).toEqual([
      expect.objectContaining({ url: '/' }),
      expect.objectContaining({ url: SANDBOX_SERVER_URL }),
    ]);
    expect(buildOpenApiDocument({ serverUrl: 'https://api.example.com' }).servers).toEqual([
      expect.objectContaining({ url: '/' }),
      expect.objectContaining({ url: 'https://api.example.com' }),
    ]);
    expect(serverUrlFromDocsUrl('https://api.example.com/docs')).toBe('https://api.example.com');
    expect(serverUrlFromDocsUrl('https://api.example.com/v1/docs/')).toBe('https://api.example.com/v1');
    expect(serverUrlFromDocsUrl('http://localhost:18080/docs')).toBe('http://localhost:18080');
    expect(serverUrlFromDocsUrl('https://docs.example.com')).toBe(SANDBOX_SERVER_URL);
    expect(serverUrlFromDocsUrl(undefined)).toBe(SANDBOX_SERVER_URL);
  });
});
