// @ts-check
/**
 * The player's own order of the hand, kept across turns, reloads and reconnections. DOM-free
 * (tested with `node --test tests/js`); the boards store it per table and seat in the
 * browser's localStorage.
 *
 * A hand is a list of cards in notation ("10H", "JK", "R7"); equal cards are interchangeable,
 * so an order is matched card by card, first come first served.
 */

/**
 * The server's hand in the player's order: the cards of `order` that are still held, in that
 * order, then the cards the player has not placed yet (drawn, penalty cards, a retrieved
 * joker) at the end, in the server's order.
 * @param {readonly string[]} order the player's last order (may hold cards no longer held)
 * @param {readonly string[]} hand the server's hand
 * @returns {{cards: string[], added: boolean[]}} the ordered hand, and which cards are new
 */
export function mergeOrder(order, hand) {
  /** @type {Map<string, number>} */
  const left = new Map();
  for (const c of hand) left.set(c, (left.get(c) || 0) + 1);
  /** @type {string[]} */
  const cards = [];
  for (const c of order) {
    const n = left.get(c) || 0;
    if (n > 0) {
      left.set(c, n - 1);
      cards.push(c);
    }
  }
  const kept = cards.length;
  for (const c of hand) {
    const n = left.get(c) || 0;
    if (n > 0) {
      left.set(c, n - 1);
      cards.push(c);
    }
  }
  return { cards, added: cards.map((_, i) => i >= kept) };
}

/**
 * Indian Rummy: the player's groups for the server's hand. Groups keep their cards that are
 * still held (empty groups go); the new cards form one group at the end.
 * @param {readonly (readonly string[])[]} groups
 * @param {readonly string[]} hand
 * @returns {{groups: string[][], added: string[]}}
 */
export function mergeGroups(groups, hand) {
  /** @type {Map<string, number>} */
  const left = new Map();
  for (const c of hand) left.set(c, (left.get(c) || 0) + 1);
  /** @type {string[][]} */
  const out = [];
  for (const g of groups) {
    /** @type {string[]} */
    const kept = [];
    for (const c of g) {
      const n = left.get(c) || 0;
      if (n > 0) {
        left.set(c, n - 1);
        kept.push(c);
      }
    }
    if (kept.length) out.push(kept);
  }
  /** @type {string[]} */
  const added = [];
  for (const c of hand) {
    const n = left.get(c) || 0;
    if (n > 0) {
      left.set(c, n - 1);
      added.push(c);
    }
  }
  if (added.length) out.push(added);
  return { groups: out, added };
}

/**
 * Which of `cards` are not in `seen` (a multiset): what changed since the player last looked.
 * @param {readonly string[]} seen @param {readonly string[]} cards
 * @returns {boolean[]}
 */
export function unseen(seen, cards) {
  /** @type {Map<string, number>} */
  const had = new Map();
  for (const c of seen) had.set(c, (had.get(c) || 0) + 1);
  return cards.map((c) => {
    const n = had.get(c) || 0;
    if (n > 0) had.set(c, n - 1);
    return n === 0;
  });
}

/**
 * The storage key of a seat's hand at a table.
 * @param {string} kind "hand" or "groups" @param {string} tableId @param {number} seat
 */
export function storageKey(kind, tableId, seat) {
  return `openrummy.${kind}.${tableId}.${seat}`;
}

/**
 * Read a stored value (null when missing, unreadable, or for another round).
 * @param {string} key @param {number} round
 * @returns {any}
 */
export function loadStored(key, round) {
  try {
    const raw = globalThis.localStorage?.getItem(key);
    if (!raw) return null;
    const data = JSON.parse(raw);
    return data && data.round === round ? data.value : null;
  } catch {
    return null;
  }
}

/** @param {string} key @param {number} round @param {any} value */
export function saveStored(key, round, value) {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify({ round, value }));
  } catch {
    /* a full or disabled storage only loses the order */
  }
}
