import { isNonPublicAddress } from './public-address';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '200.160.2.3', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});
