import type { PublicRoute } from '../../openapi/route';
import { EXECUTE_ROUTE } from './execute';
import { LIST_FX_CURRENCIES_ROUTE } from './fx-currencies';
import { GET_INSTRUCTION_ROUTE } from './instructions';
import { PAY_ROUTE } from './pay';
import { RESOLVE_ROUTE } from './resolve';
import { LIST_SCHEMES_ROUTE } from './schemes';
import { GET_TRANSACTION_ROUTE, LIST_TRANSACTIONS_ROUTE } from './transactions';
import { GET_WEBHOOK_DELIVERY_ROUTE, LIST_WEBHOOK_DELIVERIES_ROUTE } from './webhook-deliveries';
import { LIST_WEBHOOK_ENDPOINTS_ROUTE } from './webhook-endpoints';

/**
 * The public routes that declare their whole contract (openapi/route.ts), in the order the OpenAPI
 * document lists them: its `paths` are generated from this table (openapi/paths.ts), and
 * app.test.ts checks that every route the app serves with a definition is here.
 */
export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  LIST_SCHEMES_ROUTE,
  LIST_FX_CURRENCIES_ROUTE,
  RESOLVE_ROUTE,
  EXECUTE_ROUTE,
  PAY_ROUTE,
  LIST_TRANSACTIONS_ROUTE,
  GET_INSTRUCTION_ROUTE,
  GET_TRANSACTION_ROUTE,
  LIST_WEBHOOK_ENDPOINTS_ROUTE,
  LIST_WEBHOOK_DELIVERIES_ROUTE,
  GET_WEBHOOK_DELIVERY_ROUTE,
];
