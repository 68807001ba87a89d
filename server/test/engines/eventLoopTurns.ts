/**
 * How many times this thread's event loop turned while `run` was under way, and what `run` answered.
 * Work done synchronously on this thread (wasm inference) keeps the count near zero; work done in a
 * worker thread leaves the loop free to turn thousands of times.
 */
export async function eventLoopTurnsDuring<T>(run: () => Promise<T>): Promise<{ turns: number; value: T }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    turns += 1;
    if (!done) setImmediate(spin);
  };
  setImmediate(spin);
  try {
    const value = await run();
    return { turns, value };
  } finally {
    done = true;
  }
}
