// @ts-check
/**
 * The server's REST API (`/api`, OpenAPI at /docs) and the tokens this browser holds.
 * Tokens stay in localStorage, keyed by table: they are never put into a link.
 */

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message @param {any} [why] */
  constructor(status, code, message, why = null) {
    super(message);
    this.status = status;
    this.code = code;
    /** The refusal's reason as data (`{reason: "server.busy", retry_after: 3}`), if any. */
    this.why = why;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, token) {
  /** @type {{[k: string]: string}} */
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!res.ok) {
    let msg = data?.message || res.statusText;
    if (Array.isArray(data?.detail)) msg = data.detail.map((/** @type {any} */ d) => d.msg).join("; ");
    throw new ApiError(res.status, data?.error || "http", msg, data?.why ?? null);
  }
  return data;
}

/**
 * @typedef {{seat?: number | null, token?: string | null, creator?: string | null, name?: string}} Keys
 */

/** @param {string} tableId @returns {Keys} */
export function keys(tableId) {
  try {
    return JSON.parse(localStorage.getItem(`openrummy.table.${tableId}`) || "{}");
  } catch {
    return {};
  }
}

/** @param {string} tableId @param {Keys} value */
export function saveKeys(tableId, value) {
  localStorage.setItem(`openrummy.table.${tableId}`, JSON.stringify({ ...keys(tableId), ...value }));
}

export function playerName() {
  return localStorage.getItem("openrummy.name") || "";
}

/** @param {string} name */
export function savePlayerName(name) {
  localStorage.setItem("openrummy.name", name);
}
