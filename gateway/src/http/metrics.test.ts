import { routeTemplate } from './metrics';

describe('routeTemplate', () => {
  it('writes route parameters as the semantic conventions do', () => {
    expect(routeTemplate('/v1/transactions/:id')).toBe('/v1/transactions/{id}');
    expect(routeTemplate('/v1/webhook-deliveries/:id/replay')).toBe('/v1/webhook-deliveries/{id}/replay');
    expect(routeTemplate('/v1/pay')).toBe('/v1/pay');
  });
});
