// @ts-check
// DOM building shared by both sides of the dashboard (docs/dashboard.md "Security"): every value
// reaches the page as a text node or an attribute, never as markup.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attributes
 */

/**
 * An element with attributes (`on<event>` keys add listeners) and children (strings become text).
 * @param {string} tag
 * @param {Attributes} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * A status as a labelled badge; the class only picks a colour, the word is the status itself.
 * @param {string} status
 */
export function statusBadge(status) {
  return el('span', { class: `status status-${status.replace(/[^a-z]/g, '')}` }, status);
}

/**
 * @template T
 * @typedef {{ header: string, cell: (row: T) => Child | Child[] }} Column
 */

/**
 * A table with a caption, one header row and a row per item; `empty` in one cell when none. Inside
 * a box that scrolls sideways, so a table of long ids never runs past the page on a narrow window.
 * @template T
 * @param {{ caption: string, columns: Column<T>[], rows: T[], empty: string }} table
 */
export function renderTable({ caption, columns, rows, empty }) {
  const head = el('tr', {}, ...columns.map((column) => el('th', { scope: 'col' }, column.header)));
  const body = rows.length
    ? rows.map((row) => el('tr', {}, ...columns.map((column) => el('td', {}, column.cell(row)))))
    : [el('tr', {}, el('td', { colspan: columns.length }, empty))];
  return el(
    'div',
    { class: 'table-scroll' },
    el('table', {}, el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, ...body)),
  );
}

/**
 * A description list of label/value pairs.
 * @param {[string, Child | Child[]][]} pairs
 */
export function detailList(pairs) {
  return el('dl', {}, ...pairs.flatMap(([label, value]) => [el('dt', {}, label), el('dd', {}, value)]));
}

/**
 * A link to a view of this page (hash routing).
 * @param {string} path  e.g. "/transactions/txn_…"
 * @param {Child} text
 */
export function viewLink(path, text) {
  return el('a', { href: `#${path}` }, text);
}

/**
 * A word list the gateway wrote into the page from the API's own vocabulary, such as the
 * transaction states (`<meta name="transaction-statuses" content="pending processing …">`).
 * @param {string} name
 * @returns {string[]}
 */
export function pageList(name) {
  const meta = document.querySelector(`meta[name="${name}"]`);
  return (meta?.getAttribute('content') ?? '').split(' ').filter(Boolean);
}

/**
 * A filter form whose fields become the view's query (hash routing): submitting goes to
 * `#<path>?<field>=<value>…`, dropping a paging cursor.
 * @param {string} path
 * @param {HTMLElement[]} fields  labelled inputs and selects, each with a `name`
 */
export function filterForm(path, fields) {
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form))
      if (typeof value === 'string' && value) query.set(name, value);
    const text = query.toString();
    location.hash = `${path}${text ? `?${text}` : ''}`;
  };
  return el(
    'form',
    { class: 'filters', onsubmit: submit },
    ...fields,
    el('button', { type: 'submit' }, 'Apply'),
  );
}

/**
 * A labelled select: `options` are [value, label]; the first is usually ['', 'Any'].
 * @param {{ name: string, label: string, options: [string, string][], value: string }} field
 */
export function selectField({ name, label, options, value }) {
  const id = `filter-${name}`;
  const select = el(
    'select',
    { id, name },
    ...options.map(([optionValue, text]) =>
      el('option', { value: optionValue, selected: optionValue === value }, text),
    ),
  );
  return el('span', { class: 'field' }, el('label', { for: id }, label), select);
}

/**
 * A status filter offering "Any" and each state word the gateway wrote into the page (pageList).
 * @param {{ list: string, label: string, value: string }} field
 */
export function statusField({ list, label, value }) {
  const states = pageList(list).map((state) => /** @type {[string, string]} */ ([state, state]));
  return selectField({ name: 'status', label, value, options: [['', 'Any'], ...states] });
}

/**
 * A labelled input.
 * @param {{ name: string, label: string, type: string, value: string }} field
 */
export function inputField({ name, label, type, value }) {
  const id = `filter-${name}`;
  return el(
    'span',
    { class: 'field' },
    el('label', { for: id }, label),
    el('input', { id, name, type, value }),
  );
}
