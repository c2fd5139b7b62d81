/**
 * Resolves on the event loop's next turn, after the I/O waiting now: work that runs on the one
 * request thread awaits it between slices, so requests already received are answered in between.
 * (A resolved promise would continue before any I/O.)
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
