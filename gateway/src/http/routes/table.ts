import type { PublicRoute } from '../../openapi/route';
import { DASHBOARD_ASSET_ROUTE, DASHBOARD_PAGE_ROUTE } from './dashboard';
import {
  API_PAGE_ROUTE,
  API_PAGES_INDEX_ROUTE,
  ERROR_CATALOGUE_ROUTE,
  OPENAPI_DOCUMENT_ROUTE,
  REFERENCE_PAGE_ASSET_ROUTE,
  REFERENCE_PAGE_ROUTE,
  SAMPLES_PAGE_ROUTE,
} from './docs';
import { EXECUTE_ROUTE } from './execute';
import { LIST_FX_CURRENCIES_ROUTE } from './fx-currencies';
import { HEALTHZ_ROUTE, READYZ_ROUTE } from './health';
import { GET_INSTRUCTION_ROUTE } from './instructions';
import { PARTNER_CALLBACK_ROUTE } from './partner-callbacks';
import { PAY_ROUTE } from './pay';
import { RESOLVE_ROUTE } from './resolve';
import { LIST_SANDBOX_TEST_QRS_ROUTE } from './sandbox-test-qrs';
import { SANDBOX_TRIGGER_ROUTE } from './sandbox-triggers';
import { LIST_SCHEMES_ROUTE } from './schemes';
import { GET_TRANSACTION_ROUTE, LIST_TRANSACTIONS_ROUTE } from './transactions';
import {
  GET_WEBHOOK_DELIVERY_ROUTE,
  LIST_WEBHOOK_DELIVERIES_ROUTE,
  REPLAY_WEBHOOK_DELIVERY_ROUTE,
} from './webhook-deliveries';
import { LIST_WEBHOOK_ENDPOINTS_ROUTE } from './webhook-endpoints';

/**
 * Every public route, each declaring its whole contract (openapi/route.ts), in the order the
 * OpenAPI document lists them: its `paths` are generated from this table (openapi/paths.ts), and
 * app.test.ts checks that every route the app serves with a definition is here.
 */
export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  LIST_SCHEMES_ROUTE,
  LIST_FX_CURRENCIES_ROUTE,
  RESOLVE_ROUTE,
  EXECUTE_ROUTE,
  PAY_ROUTE,
  PARTNER_CALLBACK_ROUTE,
  LIST_TRANSACTIONS_ROUTE,
  GET_INSTRUCTION_ROUTE,
  GET_TRANSACTION_ROUTE,
  LIST_WEBHOOK_ENDPOINTS_ROUTE,
  LIST_WEBHOOK_DELIVERIES_ROUTE,
  GET_WEBHOOK_DELIVERY_ROUTE,
  REPLAY_WEBHOOK_DELIVERY_ROUTE,
  OPENAPI_DOCUMENT_ROUTE,
  REFERENCE_PAGE_ROUTE,
  ERROR_CATALOGUE_ROUTE,
  SAMPLES_PAGE_ROUTE,
  API_PAGES_INDEX_ROUTE,
  API_PAGE_ROUTE,
  REFERENCE_PAGE_ASSET_ROUTE,
  DASHBOARD_PAGE_ROUTE,
  DASHBOARD_ASSET_ROUTE,
  HEALTHZ_ROUTE,
  READYZ_ROUTE,
  LIST_SANDBOX_TEST_QRS_ROUTE,
  SANDBOX_TRIGGER_ROUTE,
];
