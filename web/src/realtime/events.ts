// Console-wide realtime notices for pages: "refresh your data" (type 56, or after a reconnection
// that may have missed changes).
const target = new EventTarget();

export function onRefresh(fn: () => void): () => void {
  target.addEventListener('refresh', fn);
  return () => target.removeEventListener('refresh', fn);
}

export function emitRefresh(): void {
  target.dispatchEvent(new Event('refresh'));
}
