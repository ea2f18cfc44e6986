import { createRouteMethods } from './route-methods';

describe('createRouteMethods', () => {
  const routes = createRouteMethods();
  routes.add(['GET', 'HEAD'], '/v1/transactions/:id');
  routes.add('POST', '/v1/webhook-deliveries/:id/replay');
  routes.add('GET', '/docs/assets/*');
  routes.add('POST', '/v1/pay');

  it('lists the methods of the routes whose pattern matches the path', () => {
    expect(routes.allowed('/v1/transactions/txn_1')).toEqual(['GET', 'HEAD']);
    expect(routes.allowed('/v1/webhook-deliveries/whd_1/replay')).toEqual(['POST']);
    expect(routes.allowed('/docs/assets/a/b.css')).toEqual(['GET']);
    expect(routes.allowed('/v1/pay')).toEqual(['POST']);
  });

  it('matches a parameter to one non-empty segment, and literal segments exactly', () => {
    expect(routes.allowed('/v1/transactions/')).toEqual([]);
    expect(routes.allowed('/v1/transactions/a/b')).toEqual([]);
    expect(routes.allowed('/v1/payx')).toEqual([]);
    expect(routes.allowed('/v1/nope')).toEqual([]);
  });
});
