import { MAX_API_KEY_LENGTH, readApiKeyHeader } from './auth';

describe('readApiKeyHeader', () => {
  it('treats an absent, empty or blank header as missing', () => {
    expect(readApiKeyHeader(undefined)).toEqual({ kind: 'missing' });
    expect(readApiKeyHeader('')).toEqual({ kind: 'missing' });
    expect(readApiKeyHeader('  ')).toEqual({ kind: 'missing' });
    expect(readApiKeyHeader([])).toEqual({ kind: 'missing' });
  });

  it('refuses an oversized key or a repeated header without looking it up', () => {
    expect(readApiKeyHeader('k'.repeat(MAX_API_KEY_LENGTH + 1))).toEqual({ kind: 'invalid' });
    expect(readApiKeyHeader(['a', 'b'])).toEqual({ kind: 'invalid' });
  });

  it('passes a key of up to 256 characters on as it is', () => {
    const key = 'k'.repeat(MAX_API_KEY_LENGTH);
    expect(readApiKeyHeader(key)).toEqual({ kind: 'present', key });
    expect(readApiKeyHeader('qrp_AbCdEfGh_x')).toEqual({ kind: 'present', key: 'qrp_AbCdEfGh_x' });
  });
});
