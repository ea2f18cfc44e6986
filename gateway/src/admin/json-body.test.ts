import { Code, ConnectError, createContextValues } from '@connectrpc/connect';
import { createAsyncIterable, readAllBytes, type UniversalServerRequest } from '@connectrpc/connect/protocol';
import { refuseCheckedJsonBody, withCheckedJsonBody } from './json-body';

const MAX = 1024;

function requestOf(contentType: string, body: Uint8Array): UniversalServerRequest {
  return {
    httpVersion: '1.1',
    method: 'POST',
    url: 'http://admin.test/payout.admin.v1.AdminService/CreateTenant',
    header: new Headers({ 'content-type': contentType, 'content-length': String(body.length) }),
    body: createAsyncIterable([body]),
    signal: new AbortController().signal,
    contextValues: createContextValues(),
  };
}

function envelope(json: string): Uint8Array {
  const message = Buffer.from(json);
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/** What connect then reads, and what the interceptor answers before the handler. */
async function outcome(req: UniversalServerRequest) {
  const checked = await withCheckedJsonBody(req, MAX);
  const bytes = await readAllBytes(checked.body as AsyncIterable<Uint8Array>, MAX * 2);
  const intercept = refuseCheckedJsonBody()(async () => 'handled' as never);
  let answer: string;
  try {
    answer = String(await intercept({ contextValues: checked.contextValues } as never));
  } catch (err) {
    const e = ConnectError.from(err);
    answer = `${Code[e.code]}: ${e.rawMessage}`;
  }
  return {
    body: Buffer.from(bytes).toString('latin1'),
    length: checked.header.get('content-length'),
    answer,
  };
}

describe('the admin JSON body check', () => {
  it('passes a well-formed body through as it came', async () => {
    const json = '{"name":"Acme","rateLimitPerMinute":50}';
    expect(await outcome(requestOf('application/json', Buffer.from(json)))).toEqual({
      body: json,
      length: String(json.length),
      answer: 'handled',
    });
  });

  it('refuses a key twice, an inexact number and deep nesting, and connect parses `{}` instead', async () => {
    const cases: [string, string][] = [
      ['{"name":"a","name":"b"}', 'The request body has the key "name" more than once in one object'],
      ['{"rateLimitPerMinute":50.0000000000000000001}', 'rateLimitPerMinute is 50.0000000000000000001'],
      [`{"a":${'['.repeat(65)}${']'.repeat(65)}}`, 'more than 64 levels deep'],
    ];
    for (const [json, message] of cases) {
      const result = await outcome(requestOf('application/json; charset=utf-8', Buffer.from(json)));
      expect(result).toEqual({ body: '{}', length: '2', answer: expect.stringContaining(message) });
      expect(result.answer).toMatch(/^InvalidArgument: /);
    }
  });

  it('judges each message of an enveloped JSON body', async () => {
    const body = Buffer.concat([envelope('{"name":"a"}'), envelope('{"name":"a","name":"b"}')]);
    const result = await outcome(requestOf('application/grpc+json', body));
    expect(result.answer).toMatch(/^InvalidArgument: .*"name" more than once/);
    expect(result.body).toBe(Buffer.from(envelope('{}')).toString('latin1'));
    const fine = envelope('{"name":"a"}');
    expect((await outcome(requestOf('application/grpc+json', fine))).answer).toBe('handled');
  });

  it("leaves connect's own refusals to connect: not JSON, binary, too large", async () => {
    const untouched = [
      requestOf('application/json', Buffer.from('{"name":')),
      requestOf('application/proto', Buffer.from([0x0a, 0x01, 0x61])),
      requestOf('application/json', Buffer.from(`{"name":"${'x'.repeat(MAX)}","name":"y"}`)),
    ];
    for (const req of untouched) {
      const result = await outcome(req);
      expect(result.answer).toBe('handled');
      expect(result.length).toBe(req.header.get('content-length'));
    }
  });
});
