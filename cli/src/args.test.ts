import {
  DEFAULT_ADMIN_URL,
  parseCommandLine,
  parseDuration,
  parseEvents,
  parseHeader,
  UsageError,
} from './args';

const env = { PAYOUT_ADMIN_TOKEN: 'op-token' };

function command(argv: string[], e: NodeJS.ProcessEnv = env) {
  const parsed = parseCommandLine(argv, e);
  if (parsed.type !== 'run') throw new Error('expected a command');
  return parsed;
}

describe('parseCommandLine', () => {
  it('parses tenant create with and without a rate limit', () => {
    expect(command(['tenant', 'create', '--name', 'Acme']).command).toEqual({
      kind: 'tenant create',
      name: 'Acme',
      rateLimitPerMinute: 0,
    });
    expect(command(['tenant', 'create', '--name', 'Acme', '--rate-limit', '250']).command).toMatchObject({
      rateLimitPerMinute: 250,
    });
  });

  it('takes the admin url and token from env, flags winning', () => {
    expect(command(['tenant', 'list']).connection).toEqual({
      adminUrl: DEFAULT_ADMIN_URL,
      token: 'op-token',
    });
    const fromEnv = command(['tenant', 'list'], { ...env, PAYOUT_ADMIN_URL: 'http://admin:9000' });
    expect(fromEnv.connection.adminUrl).toBe('http://admin:9000');
    const fromFlags = command(['tenant', 'list', '--admin-url', 'http://x:1', '--token', 't2'], env);
    expect(fromFlags.connection).toEqual({ adminUrl: 'http://x:1', token: 't2' });
  });

  it('parses endpoint create with repeated --header and --events lists', () => {
    const parsed = command([
      'endpoint',
      'create',
      '--tenant',
      'ten_1',
      '--url',
      'https://example.com/hook',
      '--events',
      'transaction.completed,transaction.failed',
      '--header',
      'Authorization: Bearer abc:def',
      '--header',
      'X-Api-Key:  k1 ',
      '--retry',
      'extended',
    ]);
    expect(parsed.command).toEqual({
      kind: 'endpoint create',
      tenantId: 'ten_1',
      url: 'https://example.com/hook',
      eventTypes: ['transaction.completed', 'transaction.failed'],
      headers: [
        { name: 'Authorization', value: 'Bearer abc:def' },
        { name: 'X-Api-Key', value: 'k1' },
      ],
      retry: 'extended',
    });
  });

  it('defaults endpoint events to * and retry to standard', () => {
    expect(command(['endpoint', 'create', '--tenant', 't', '--url', 'https://e.x']).command).toMatchObject({
      eventTypes: ['*'],
      headers: [],
      retry: 'standard',
    });
  });

  it('takes the endpoint id as a positional for enable and disable', () => {
    expect(command(['endpoint', 'disable', 'whe_1']).command).toEqual({
      kind: 'endpoint disable',
      endpointId: 'whe_1',
    });
    expect(command(['endpoint', 'enable', 'whe_2']).command).toEqual({
      kind: 'endpoint enable',
      endpointId: 'whe_2',
    });
  });

  it('parses key and secret commands', () => {
    expect(command(['key', 'revoke', '--key-prefix', 'qrp_abcdefgh']).command).toEqual({
      kind: 'key revoke',
      keyPrefix: 'qrp_abcdefgh',
    });
    expect(command(['key', 'list', '--tenant', 'ten_1']).command).toEqual({
      kind: 'key list',
      tenantId: 'ten_1',
    });
    expect(command(['secret', 'rotate', '--tenant', 'ten_1']).command).toEqual({
      kind: 'secret rotate',
      tenantId: 'ten_1',
      gracePeriodSeconds: undefined,
    });
    expect(command(['secret', 'rotate', '--tenant', 'ten_1', '--grace', '15m']).command).toEqual({
      kind: 'secret rotate',
      tenantId: 'ten_1',
      gracePeriodSeconds: 900,
    });
    expect(command(['secret', 'rotate', '--tenant', 'ten_1', '--grace', '0']).command).toMatchObject({
      gracePeriodSeconds: 0,
    });
    expect(command(['tenant', 'update', '--tenant', 'ten_1', '--rate-limit', '0']).command).toEqual({
      kind: 'tenant update',
      tenantId: 'ten_1',
      rateLimitPerMinute: 0,
    });
  });

  it('parses delivery list with every filter, and without any', () => {
    expect(
      command([
        'delivery',
        'list',
        '--tenant',
        'ten_1',
        '--transaction-id',
        'txn_01JD0000000000000000000001',
        '--status',
        'exhausted',
        '--limit',
        '50',
        '--cursor',
        'abc',
      ]).command,
    ).toEqual({
      kind: 'delivery list',
      tenantId: 'ten_1',
      transactionId: 'txn_01JD0000000000000000000001',
      status: 'exhausted',
      limit: 50,
      cursor: 'abc',
    });
    expect(command(['delivery', 'list', '--tenant', 'ten_1']).command).toEqual({
      kind: 'delivery list',
      tenantId: 'ten_1',
      transactionId: '',
      status: undefined,
      limit: 0,
      cursor: '',
    });
    // The page size range is the webhook service's rule: 101 goes through and is refused there.
    expect(command(['delivery', 'list', '--tenant', 't', '--limit', '101']).command).toMatchObject({
      limit: 101,
    });
  });

  it('takes the delivery or endpoint id as a positional for show, replay and ping', () => {
    expect(command(['delivery', 'show', 'whd_1']).command).toEqual({
      kind: 'delivery show',
      deliveryId: 'whd_1',
    });
    expect(command(['delivery', 'replay', 'whd_2']).command).toEqual({
      kind: 'delivery replay',
      deliveryId: 'whd_2',
    });
    expect(command(['endpoint', 'ping', 'whe_1']).command).toEqual({
      kind: 'endpoint ping',
      endpointId: 'whe_1',
    });
  });

  it('answers --help per command and overall', () => {
    const help = parseCommandLine(['endpoint', 'create', '--help'], {});
    expect(help.type).toBe('help');
    expect(help.type === 'help' && help.text).toContain('--header');
    const general = parseCommandLine([], {});
    expect(general.type === 'help' && general.text).toContain('payoutctl secret rotate');
    expect(general.type === 'help' && general.text).toContain('payoutctl delivery replay DELIVERY_ID');
    expect(general.type === 'help' && general.text).toContain('payoutctl endpoint ping ENDPOINT_ID');
    const list = parseCommandLine(['delivery', 'list', '--help'], {});
    expect(list.type === 'help' && list.text).toContain('--transaction-id');
    const rotate = parseCommandLine(['secret', 'rotate', '--help'], {});
    expect(rotate.type === 'help' && rotate.text).toContain('--grace');
  });

  it.each([
    [['tenant', 'create'], /--name is required/],
    [['tenant', 'create', '--name', 'A', '--rate-limit', 'ten'], /--rate-limit/],
    [['tenant', 'create', '--name', 'A', '--rate-limit', '-5'], /rate-limit/],
    [['tenant', 'update', '--tenant', 't'], /--rate-limit is required/],
    [['tenant', 'create', '--name', 'A', '--bogus'], /Unknown option/],
    [['tenant', 'explode'], /unknown command/],
    [['nothing'], /unknown command/],
    [['endpoint', 'disable'], /ENDPOINT_ID is required/],
    [['endpoint', 'disable', 'a', 'b'], /unexpected argument/],
    [['endpoint', 'create', '--tenant', 't', '--url', 'u', '--header', 'no-colon'], /Name: value/],
    [
      ['endpoint', 'create', '--tenant', 't', '--url', 'u', '--retry', 'forever'],
      /--retry must be one of standard, extended/,
    ],
    [['endpoint', 'create', '--tenant', 't', '--url', 'u', '--events', '*,transaction.failed'], /alone/],
    [['tenant', 'list', '--admin-url', 'ftp://x'], /http/],
    [['delivery', 'list'], /--tenant is required/],
    [
      ['delivery', 'list', '--tenant', 't', '--status', 'lost'],
      /--status must be one of pending, delivering/,
    ],
    [['delivery', 'list', '--tenant', 't', '--limit', 'ten'], /--limit must be a positive integer/],
    [['delivery', 'list', '--tenant', 't', '--limit', '0'], /--limit must be a positive integer/],
    [['delivery', 'list', '--tenant', 't', '--limit', '-3'], /--limit/],
    [['delivery', 'show'], /DELIVERY_ID is required/],
    [['delivery', 'replay', 'a', 'b'], /unexpected argument/],
    [['endpoint', 'ping'], /ENDPOINT_ID is required/],
    [['secret', 'rotate', '--tenant', 't', '--grace', '1w'], /--grace must be a duration/],
    [['secret', 'rotate', '--tenant', 't', '--grace', '-5'], /--grace/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv, env)).toThrow(UsageError);
    expect(() => parseCommandLine(argv, env)).toThrow(message);
  });

  it('refuses to run without an operator token', () => {
    expect(() => parseCommandLine(['tenant', 'list'], {})).toThrow(/PAYOUT_ADMIN_TOKEN/);
  });
});

describe('parseHeader and parseEvents', () => {
  it('splits a header at the first colon', () => {
    expect(parseHeader('X-Sig: a:b: c')).toEqual({ name: 'X-Sig', value: 'a:b: c' });
    expect(() => parseHeader(': value')).toThrow(UsageError);
    expect(() => parseHeader('Bad Name: v')).toThrow(UsageError);
  });

  it('joins repeated --events and drops duplicates', () => {
    expect(parseEvents(['a,b', 'b', ' c '])).toEqual(['a', 'b', 'c']);
    expect(parseEvents(['*'])).toEqual(['*']);
    expect(parseEvents([])).toEqual(['*']);
  });
});

describe('parseDuration', () => {
  it.each([
    ['86400', 86_400],
    ['30s', 30],
    ['15m', 900],
    ['24h', 86_400],
    ['7d', 604_800],
    ['0', 0],
    [' 2h ', 7_200],
  ])('%s is %i seconds', (raw, seconds) => {
    expect(parseDuration(raw)).toBe(seconds);
  });

  it('sends a value beyond the field as its maximum, for the service to refuse', () => {
    expect(parseDuration('99999999999d')).toBe(4_294_967_295);
  });

  it.each(['', '1.5h', 'h', '24H', '1h30m', 'soon'])('refuses %j', (raw) => {
    expect(() => parseDuration(raw)).toThrow(UsageError);
  });
});
