// The DOM visibility hook: browsers may kill a hidden tab without notice, so a hidden page is the
// last good moment to fold the log. Does nothing outside a document.

/** Call `fn` whenever the page becomes hidden; returns the function that stops watching. */
export function onPageHidden(fn: () => void): () => void {
  if (typeof document === 'undefined') return () => undefined;
  const listener = () => {
    if (document.visibilityState === 'hidden') fn();
  };
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}
