// @ts-check
// The page frame both sides share (docs/dashboard.md "Signing in"): the sign-in form, the
// navigation with sign-out, and hash routing to views that render into <main>.
import { ApiRequestError } from './answers.js';
import { el } from './dom.js';

/**
 * @typedef {{ get(): string | null, set(value: string): void, clear(): void }} Session
 * @typedef {{
 *   match: string[],
 *   query: URLSearchParams,
 *   credential: string,
 *   signal: AbortSignal,
 *   refresh: () => void,
 * }} ViewContext
 * @typedef {{ pattern: RegExp, title: string, view: (context: ViewContext) => Promise<Node[]> }} Route
 * @typedef {{
 *   session: Session,
 *   credentialLabel: string,
 *   credentialHint: string,
 *   verify: (credential: string) => Promise<void>,
 *   nav: [string, string][],
 *   routes: Route[],
 *   home: string,
 * }} DashboardOptions
 */

/** @param {string} id */
function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

/**
 * The sign-in form; `verify` is one real call with the credential, so a wrong one is refused here
 * with the API's own message and never stored.
 * @param {DashboardOptions} options
 * @param {string} notice  why the form is shown again (a refused credential), or ''
 * @param {() => void} signedIn
 */
function signInForm(options, notice, signedIn) {
  const input = /** @type {HTMLInputElement} */ (
    el('input', {
      id: 'credential',
      name: 'credential',
      type: 'password',
      autocomplete: 'off',
      required: true,
    })
  );
  const message = el('p', { class: 'error', role: 'alert' }, notice);
  /** @param {Event} event */
  const submit = async (event) => {
    event.preventDefault();
    const credential = input.value.trim();
    message.textContent = '';
    try {
      await options.verify(credential);
      options.session.set(credential);
      signedIn();
    } catch (err) {
      message.textContent = err instanceof Error ? err.message : String(err);
    }
  };
  return el(
    'form',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-heading', onsubmit: submit },
    el('h2', { id: 'sign-in-heading' }, 'Sign in'),
    el('label', { for: 'credential' }, options.credentialLabel),
    input,
    el('p', { class: 'hint' }, options.credentialHint),
    el('button', { type: 'submit' }, 'Sign in'),
    message,
  );
}

/**
 * Moves keyboard and screen-reader focus to a new view's heading: the link that led there is gone.
 * @param {HTMLElement} main
 */
function focusHeading(main) {
  const heading = main.querySelector('h2');
  if (!heading) return;
  heading.setAttribute('tabindex', '-1');
  heading.focus();
}

/**
 * Starts the dashboard in the page's #nav and #main.
 * @param {DashboardOptions} options
 */
export function startDashboard(options) {
  const nav = byId('nav');
  const main = byId('main');
  const baseTitle = document.title;
  /** @type {AbortController | null} */
  let current = null;
  /** The hash on screen: a refresh of the same view keeps it visible until the new one is ready. */
  let shown = '';

  /** @param {string} notice */
  const showSignIn = (notice) => {
    current?.abort();
    shown = '';
    nav.replaceChildren();
    document.title = `Sign in – ${baseTitle}`;
    main.replaceChildren(signInForm(options, notice, render));
    byId('credential').focus();
  };
  const signOut = () => {
    options.session.clear();
    showSignIn('');
  };

  const renderNav = () => {
    const links = options.nav.map(([path, label]) => {
      const here = location.hash === `#${path}` || location.hash.startsWith(`#${path}/`);
      return el('li', {}, el('a', { href: `#${path}`, 'aria-current': here ? 'page' : null }, label));
    });
    nav.replaceChildren(
      el('ul', {}, ...links),
      el('button', { type: 'button', class: 'sign-out', onclick: signOut }, 'Sign out'),
    );
  };

  async function render() {
    const credential = options.session.get();
    if (!credential) return showSignIn('');
    const [path = '', search = ''] = location.hash.slice(1).split('?');
    const route = options.routes.find((candidate) => candidate.pattern.test(path));
    if (!route) {
      location.hash = options.home;
      return;
    }
    current?.abort();
    const controller = new AbortController();
    current = controller;
    renderNav();
    document.title = `${route.title} – ${baseTitle}`;
    const newView = shown !== location.hash;
    if (newView) main.replaceChildren(el('p', {}, 'Loading…'));
    shown = location.hash;
    const match = /** @type {RegExpExecArray} */ (route.pattern.exec(path)).slice(1).map(decodeURIComponent);
    const context = {
      match,
      query: new URLSearchParams(search),
      credential,
      signal: controller.signal,
      refresh: render,
    };
    try {
      const nodes = await route.view(context);
      if (controller.signal.aborted) return;
      main.replaceChildren(...nodes);
      if (newView) focusHeading(main);
    } catch (err) {
      if (controller.signal.aborted) return;
      if (err instanceof ApiRequestError && err.status === 401) {
        options.session.clear();
        return showSignIn(err.message);
      }
      const message = err instanceof Error ? err.message : String(err);
      main.replaceChildren(el('h2', {}, route.title), el('p', { class: 'error', role: 'alert' }, message));
    }
  }

  window.addEventListener('hashchange', () => void render());
  void render();
}
