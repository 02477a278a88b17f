// @ts-check
/**
 * What the other players' turns changed, step by step: every event since the player's own
 * last move, each with the view before and after it, so the page can step through them (the
 * table before and after each play, the card drawn or thrown). A spectator gets the last
 * player's turn. DOM-free (tested in node); the page draws the steps.
 */
import { unseen } from "./order.js";

/** @typedef {{before: any, after: any, event: any}} TurnStep */

export class OpponentTurns {
  constructor() {
    /** @type {TurnStep[]} */ this.steps = [];
    /** The next recorded event starts a new list (after the player's own move). */
    this.restart = false;
    /** Which step is on screen (while stepping through), or -1. */
    this.at = -1;
  }

  /**
   * Record one update: the view before it, its event, the view after it.
   * @param {any} before @param {any} event @param {any} after @param {number | null} mySeat
   */
  record(before, event, after, mySeat) {
    if (!before || !event) return;
    const seat = event.seat;
    if (mySeat !== null && seat === mySeat) {
      this.restart = true;
      this.close();
      return;
    }
    const last = this.steps[this.steps.length - 1];
    if (this.restart || (mySeat === null && last && last.event.seat !== seat)) {
      this.steps = [];
      this.restart = false;
      this.close();
    }
    this.steps.push({ before, after, event });
  }

  get open() {
    return this.at >= 0;
  }

  /** Show the first step. */
  start() {
    this.at = this.steps.length ? 0 : -1;
  }

  close() {
    this.at = -1;
  }

  /** @param {number} delta @returns {boolean} whether the step moved */
  move(delta) {
    const to = this.at + delta;
    if (!this.open || to < 0 || to >= this.steps.length) return false;
    this.at = to;
    return true;
  }

  /** @returns {TurnStep | null} */
  get current() {
    return this.open ? this.steps[this.at] : null;
  }
}

/**
 * The cards of the table after a step, meld by meld, each marked if the step put it there.
 * @param {string[][] | null | undefined} before @param {string[][] | null | undefined} after
 * @returns {{tok: string, fresh: boolean}[][]}
 */
export function tableChange(before, after) {
  const flat = (/** @type {string[][]} */ melds) => melds.flat().map((tok) => tok.split("=")[0]);
  const fresh = unseen(flat(before || []), flat(after || []));
  let k = 0;
  return (after || []).map((meld) => meld.map((tok) => ({ tok, fresh: !!fresh[k++] })));
}

/**
 * Who dropped in a round (game log events in order), and whether `seat` made a move in it:
 * a hand that ends because everyone else dropped before the player's first turn is said so.
 * @param {any[]} log @param {number} index @param {number | null} seat
 * @returns {{dropped: number[], played: boolean}}
 */
export function roundDrops(log, index, seat) {
  /** @type {number[]} */
  const dropped = [];
  let played = false;
  let round = 0;
  for (const e of log) {
    if (round === index) {
      if (e.data?.code === "dropped") dropped.push(e.seat);
      else if (seat !== null && e.seat === seat && e.actor === "seat") played = true;
    }
    if ((e.after || []).some((/** @type {any} */ a) => a.code === "round_over")) round += 1;
  }
  return { dropped, played };
}
