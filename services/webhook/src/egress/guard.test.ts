import { createEgressGuard, type HostLookup, pinPublicAddress, type ResolvedAddress } from './guard';

const family = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

// A resolver that answers `answers` for every name and counts its calls.
function fakeLookup(...answers: string[]): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    return answers.map((address) => ({ address, family: family(address) }));
  };
  return Object.assign(lookup, { calls });
}

const strict = (lookup: HostLookup) => createEgressGuard({ allowPrivateTargets: false, lookup });
const relaxed = (lookup: HostLookup) => createEgressGuard({ allowPrivateTargets: true, lookup });

describe('createEgressGuard: the address rule on resolved names', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local or metadata'],
    ['fd00:ec2::254', 'private (unique local)'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'private (unique local)'],
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['64:ff9b::a00:1', 'private (NAT64)'],
    ['2002:7f00:1::', 'loopback (6to4)'],
  ])('refuses a name resolving only to %s (%s)', async (address, label) => {
    const lookup = fakeLookup(address);
    const result = await strict(lookup).check('https://hooks.example.com/webhooks');
    // One answer for every name without a public address: no DNS oracle (docs/api/webhooks.md
    // "Where we send"); the classes stay in the detail, for our logs.
    expect(result).toEqual({
      ok: false,
      errorClass: 'dns',
      reason: 'hooks.example.com does not resolve to a public address',
      detail: `only ${label} addresses`,
    });
    expect(lookup.calls).toEqual(['hooks.example.com']);
  });

  it('names every refused class when all answers are refused', async () => {
    const result = await strict(fakeLookup('127.0.0.1', '::1', '10.0.0.1')).check('https://a.example.com/');
    expect(result).toMatchObject({
      ok: false,
      reason: 'a.example.com does not resolve to a public address',
      detail: 'only loopback, private addresses',
    });
  });

  it('drops refused answers and pins the first public one', async () => {
    const lookup = fakeLookup('127.0.0.1', '2606:4700:4700::1111', '93.184.216.34');
    const result = await strict(lookup).check('https://hooks.example.com:8443/in?x=1');
    expect(result).toEqual({
      ok: true,
      url: new URL('https://hooks.example.com:8443/in?x=1'),
      address: '2606:4700:4700::1111',
      family: 6,
    });
    expect(lookup.calls).toHaveLength(1);
  });

  it('calls a resolver failure a retryable dns error, worded as a name resolving only to refused addresses', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nope.example.com'), { code: 'ENOTFOUND' });
    };
    await expect(strict(failing).check('https://nope.example.com/')).resolves.toEqual({
      ok: false,
      errorClass: 'dns',
      reason: 'nope.example.com does not resolve to a public address',
      detail: 'lookup failed (ENOTFOUND)',
    });
    await expect(strict(fakeLookup()).check('https://empty.example.com/')).resolves.toEqual({
      ok: false,
      errorClass: 'dns',
      reason: 'empty.example.com does not resolve to a public address',
      detail: 'no address',
    });
    // An internal name that exists and one that does not: the tenant cannot tell them apart.
    const internal = await strict(fakeLookup('10.0.0.7')).check('https://db.internal/');
    const missing = await strict(failing).check('https://db.internal/');
    expect(
      [internal, missing].map((r) => (r.ok ? r : { errorClass: r.errorClass, reason: r.reason })),
    ).toEqual([
      { errorClass: 'dns', reason: 'db.internal does not resolve to a public address' },
      { errorClass: 'dns', reason: 'db.internal does not resolve to a public address' },
    ]);
    await expect(strict(fakeLookup('not-an-ip')).check('https://odd.example.com/')).resolves.toMatchObject({
      errorClass: 'dns',
    });
  });
});

describe('createEgressGuard: the name rule and IP literals', () => {
  it.each([
    ['http://hooks.example.com/', 'url must use https'],
    ['https://user:pw@hooks.example.com/', 'url must not carry credentials; use a custom header instead'],
    ['https://localhost/', 'url must not point at a local or metadata host'],
    ['https://api.localhost./', 'url must not point at a local or metadata host'],
    ['https://metadata.google.internal/', 'url must not point at a local or metadata host'],
    ['not a url', 'url must be an absolute URL'],
    ['https://127.0.0.1/', 'url must not point at a loopback address'],
    ['https://2130706433/', 'url must not point at a loopback address'],
    ['https://0.0.0.0/', 'url must not point at a unspecified address'],
    ['https://[::]/', 'url must not point at a unspecified address'],
    ['https://[::1]/', 'url must not point at a loopback address'],
    ['https://169.254.169.254/latest/meta-data/', 'url must not point at a link-local or metadata address'],
    ['https://[fd00:ec2::254]/', 'url must not point at a private (unique local) address'],
    ['https://100.100.100.200/', 'url must not point at a carrier-grade NAT address'],
    ['https://10.0.0.1/', 'url must not point at a private address'],
    ['https://172.16.5.4/', 'url must not point at a private address'],
    ['https://192.168.0.1/', 'url must not point at a private address'],
    ['https://239.1.2.3/', 'url must not point at a multicast address'],
    ['https://[fe80::1]/', 'url must not point at a link-local address'],
    ['https://[fc00::1]/', 'url must not point at a private (unique local) address'],
    ['https://[::ffff:127.0.0.1]/', 'url must not point at a loopback (IPv4-mapped) address'],
    ['https://[::ffff:7f00:1]/', 'url must not point at a loopback (IPv4-mapped) address'],
    ['https://[64:ff9b::a00:1]/', 'url must not point at a private (NAT64) address'],
    ['https://[2002:7f00:1::]/', 'url must not point at a loopback (6to4) address'],
  ])('refuses %s before any lookup', async (raw, reason) => {
    const lookup = fakeLookup('93.184.216.34');
    await expect(strict(lookup).check(raw)).resolves.toEqual({
      ok: false,
      errorClass: 'refused_target',
      reason,
    });
    expect(lookup.calls).toEqual([]);
  });

  it('pins a public IP literal without resolving it', async () => {
    const lookup = fakeLookup('127.0.0.1');
    await expect(strict(lookup).check('https://93.184.216.34/hook')).resolves.toMatchObject({
      ok: true,
      address: '93.184.216.34',
      family: 4,
    });
    await expect(strict(lookup).check('https://[2606:4700::1]/hook')).resolves.toMatchObject({
      ok: true,
      address: '2606:4700::1',
      family: 6,
    });
    expect(lookup.calls).toEqual([]);
  });
});

describe('createEgressGuard with private targets allowed', () => {
  it('allows http and private addresses, still resolving once and pinning', async () => {
    const lookup = fakeLookup('127.0.0.1', '10.0.0.1');
    await expect(relaxed(lookup).check('http://receiver.example.test:8080/in')).resolves.toEqual({
      ok: true,
      url: new URL('http://receiver.example.test:8080/in'),
      address: '127.0.0.1',
      family: 4,
    });
    expect(lookup.calls).toEqual(['receiver.example.test']);
    await expect(relaxed(lookup).check('http://[::1]:9/')).resolves.toMatchObject({
      address: '::1',
      family: 6,
    });
    await expect(relaxed(lookup).check('http://localhost:9/')).resolves.toMatchObject({ ok: true });
  });

  it('still refuses credentials and other schemes', async () => {
    await expect(relaxed(fakeLookup('127.0.0.1')).check('ftp://127.0.0.1/')).resolves.toMatchObject({
      ok: false,
      errorClass: 'refused_target',
    });
    await expect(relaxed(fakeLookup('127.0.0.1')).check('http://u:p@127.0.0.1/')).resolves.toMatchObject({
      ok: false,
      errorClass: 'refused_target',
    });
  });
});

describe('pinPublicAddress (the address rule alone)', () => {
  it('refuses a literal refused address even when the name rule is not asked', async () => {
    await expect(pinPublicAddress('[::1]', { allowPrivateTargets: false })).resolves.toEqual({
      ok: false,
      errorClass: 'refused_target',
      reason: '::1 is a loopback address',
    });
  });

  it('refuses a name by its resolved address alone', async () => {
    await expect(
      pinPublicAddress('totally-public.example', {
        allowPrivateTargets: false,
        lookup: fakeLookup('192.168.7.7'),
      }),
    ).resolves.toMatchObject({
      ok: false,
      reason: 'totally-public.example does not resolve to a public address',
      detail: 'only private addresses',
    });
  });
});
