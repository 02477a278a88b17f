// @ts-check
/**
 * The turn timer as a player reads it: the turn's own time first, then the time bank.
 * The server sends when the turn will be played for the seat (its deadline: the turn's time
 * plus the seat's bank) and the bank the seat had when the turn began; the page shows the
 * two apart, the bank counting down once the turn's time is over. DOM-free (tested in node).
 */

/**
 * @param {number} remaining seconds until the deadline (turn time plus bank)
 * @param {number | null | undefined} bank the seat's bank when its turn began (seconds)
 * @returns {{turn: number, bank: number, inBank: boolean}} whole seconds
 */
export function timerParts(remaining, bank) {
  const left = Math.max(0, remaining);
  const b = Math.max(0, bank ?? 0);
  const turn = Math.max(0, left - b);
  const inBank = b > 0 && left <= b;
  return { turn: Math.ceil(turn), bank: Math.ceil(Math.min(b, left)), inBank };
}

/**
 * Seconds as m:ss.
 * @param {number} s
 */
export function clockText(s) {
  const n = Math.max(0, Math.round(s));
  return `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
}
