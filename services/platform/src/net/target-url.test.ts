import { checkTargetUrl, MAX_URL_LENGTH } from './target-url';

const strict = { allowPrivateTargets: false };
const relaxed = { allowPrivateTargets: true };

describe('checkTargetUrl', () => {
  it.each([
    ['https://hooks.example.com/payouts', 'https://hooks.example.com/payouts'],
    ['https://hooks.example.com:8443/a?b=c', 'https://hooks.example.com:8443/a?b=c'],
    ['  https://EXAMPLE.com  ', 'https://example.com/'],
    ['https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
    ['https://[2606:4700:4700::1111]/hook', 'https://[2606:4700:4700::1111]/hook'],
  ])('accepts %s', (raw, normalized) => {
    expect(checkTargetUrl(raw, strict)).toEqual({ ok: true, url: normalized });
  });

  it.each([
    ['', 'url is required'],
    ['/relative/path', 'url must be an absolute URL'],
    ['hooks.example.com/x', 'url must be an absolute URL'],
    ['http://hooks.example.com/x', 'url must use https'],
    ['ftp://hooks.example.com/x', 'url must use https'],
    ['https://user:pass@hooks.example.com/x', 'url must not carry credentials; use a custom header instead'],
    [`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`, `url must be at most ${MAX_URL_LENGTH} characters`],
    ['https://localhost/x', 'url must not point at a local or metadata host'],
    ['https://LOCALHOST./x', 'url must not point at a local or metadata host'],
    ['https://api.localhost/x', 'url must not point at a local or metadata host'],
    [
      'https://metadata.google.internal/computeMetadata/v1/',
      'url must not point at a local or metadata host',
    ],
    ['https://127.0.0.1/x', 'url must not point at a loopback address'],
    ['https://2130706433/x', 'url must not point at a loopback address'],
    ['https://0x7f.1/x', 'url must not point at a loopback address'],
    ['https://10.1.2.3/x', 'url must not point at a private address'],
    ['https://172.20.0.5/x', 'url must not point at a private address'],
    ['https://192.168.0.10/x', 'url must not point at a private address'],
    ['https://169.254.169.254/latest/meta-data/', 'url must not point at a link-local or metadata address'],
    ['https://[::1]/x', 'url must not point at a loopback address'],
    ['https://[fe80::1]/x', 'url must not point at a link-local address'],
    ['https://[fd12:3456::1]/x', 'url must not point at a private (unique local) address'],
    [
      'https://[::ffff:169.254.169.254]/x',
      'url must not point at a link-local or metadata (IPv4-mapped) address',
    ],
    ['https://0.0.0.0/x', 'url must not point at a unspecified address'],
  ])('refuses %s', (raw, problem) => {
    expect(checkTargetUrl(raw, strict)).toEqual({ ok: false, problem });
  });

  it.each([
    ['http://127.0.0.1:4000/hook', 'http://127.0.0.1:4000/hook'],
    ['http://localhost:4000/hook', 'http://localhost:4000/hook'],
    ['https://[::1]:4000/hook', 'https://[::1]:4000/hook'],
    ['http://169.254.169.254/', 'http://169.254.169.254/'],
  ])('accepts %s when private targets are allowed', (raw, normalized) => {
    expect(checkTargetUrl(raw, relaxed)).toEqual({ ok: true, url: normalized });
  });

  it('still refuses other schemes and credentials when private targets are allowed', () => {
    expect(checkTargetUrl('ftp://127.0.0.1/x', relaxed)).toEqual({
      ok: false,
      problem: 'url must use http or https',
    });
    expect(checkTargetUrl('http://u:p@127.0.0.1/x', relaxed).ok).toBe(false);
  });
});
