// @ts-check
// Calls to our own API from the dashboard (docs/dashboard.md "Security"): same origin only, the
// credential from sessionStorage in the usual header, and the API's own error message shown as is.
import { errorFromBody } from './answers.js';

/**
 * Sends a request to this origin and answers its JSON body; throws ApiRequestError otherwise.
 * @param {string} path  absolute path on this origin, e.g. "/v1/transactions"
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown }} [init]
 * @returns {Promise<any>}
 */
export async function requestJson(path, init = {}) {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not a path on this origin: ${path}`);
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', ...init.headers };
  const options = /** @type {RequestInit} */ ({
    method: init.method ?? 'GET',
    headers,
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    options.body = JSON.stringify(init.body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  /** @type {unknown} */
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) throw errorFromBody(body, response.status);
  return body;
}

/**
 * The signed-in credential of one side, kept in sessionStorage only: gone when the tab closes,
 * never a cookie, never sent anywhere but this origin's API.
 * @param {string} storageKey
 */
export function createSession(storageKey) {
  return {
    /** @returns {string | null} */
    get: () => sessionStorage.getItem(storageKey),
    /** @param {string} value */
    set: (value) => sessionStorage.setItem(storageKey, value),
    clear: () => sessionStorage.removeItem(storageKey),
  };
}
