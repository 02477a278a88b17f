// @ts-check
/**
 * Undo and redo of the steps of one turn. DOM-free (tested with `node --test tests/js`).
 * A step is a snapshot of the turn being built, taken before each change; the snapshots are
 * the caller's plain values, copied with `structuredClone`.
 * @template T
 */
export class Steps {
  constructor() {
    /** @type {T[]} */ this.done = [];
    /** @type {T[]} */ this.undone = [];
  }

  /** Before a change: remember the state it changes. @param {T} state */
  push(state) {
    this.done.push(structuredClone(state));
    this.undone = [];
  }

  /** @param {T} current @returns {T | null} the state before the last change */
  undo(current) {
    const prev = this.done.pop();
    if (prev === undefined) return null;
    this.undone.push(structuredClone(current));
    return prev;
  }

  /** @param {T} current @returns {T | null} the state the last undo went back from */
  redo(current) {
    const next = this.undone.pop();
    if (next === undefined) return null;
    this.done.push(structuredClone(current));
    return next;
  }

  clear() {
    this.done = [];
    this.undone = [];
  }

  get canUndo() {
    return this.done.length > 0;
  }

  get canRedo() {
    return this.undone.length > 0;
  }
}
