/**
 * Let the event loop run the tasks waiting behind the current one (input, rendering, a worker's
 * messages such as an abort), then continue. Node: `setImmediate`. Browsers and workers: a message
 * to a fresh `MessageChannel`, a task queued behind those already waiting; not `setTimeout(0)`,
 * which browsers clamp to 4 ms once timers nest five deep, as they do in a loop that yields
 * after every batch (measured in a Chromium worker: 4–6 ms a yield against 0.2 ms). Not
 * `scheduler.yield()`: its continuation runs ahead of the tasks already queued, and the point here
 * is that they run first.
 */
export function yieldToEventLoop(): Promise<void> {
  const g = globalThis as { setImmediate?: (fn: () => void) => unknown };
  if (typeof g.setImmediate === 'function') {
    const immediate = g.setImmediate;
    return new Promise((resolve) => {
      immediate(resolve);
    });
  }
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
