import { randomBytes } from 'node:crypto';
import { createSealedBox } from '../crypto/sealed-box';
import { headersSealContext, openEndpointHeaders } from './service';

// docs/api/webhooks.md "Custom headers": a name reserved after an endpoint stored it stays stored
// but is never sent.
describe('openEndpointHeaders', () => {
  const sealedBox = createSealedBox([randomBytes(32)]);
  const seal = (endpointId: string, pairs: Array<[string, string]>) =>
    sealedBox.seal(Buffer.from(JSON.stringify(pairs), 'utf8'), headersSealContext(endpointId));

  it('opens the stored headers in order', () => {
    const sealed = seal('whe_1', [
      ['X-Tenant', 'acme'],
      ['Authorization', 'Bearer t'],
    ]);
    expect(openEndpointHeaders(sealedBox, 'whe_1', sealed)).toEqual([
      { name: 'X-Tenant', value: 'acme' },
      { name: 'Authorization', value: 'Bearer t' },
    ]);
  });

  it('leaves out a stored name that is reserved now, in any case', () => {
    const sealed = seal('whe_2', [
      ['Transfer-Encoding', 'chunked'],
      ['X-Tenant', 'acme'],
      ['connection', 'close'],
      ['X-Event-Id', 'forged'],
      ['Proxy-Authorization', 'Basic x'],
    ]);
    expect(openEndpointHeaders(sealedBox, 'whe_2', sealed)).toEqual([{ name: 'X-Tenant', value: 'acme' }]);
  });

  it('does not open headers sealed for another endpoint', () => {
    const sealed = seal('whe_3', [['X-Tenant', 'acme']]);
    expect(() => openEndpointHeaders(sealedBox, 'whe_4', sealed)).toThrow();
  });
});
