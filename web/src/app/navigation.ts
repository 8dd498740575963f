// Lets non-component code (session handling, the API client's expired-token hook) navigate with
// the router once it exists, without importing it (which would be circular).
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateFn: Navigate = (to) => window.location.assign(to);

export function setNavigate(fn: Navigate): void {
  navigateFn = fn;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigateFn(to, options);
}

/** /login with the page to come back to. */
export function loginPathFor(path: string): string {
  return path && path !== '/' && !path.startsWith('/login') ? `/login?redirect=${encodeURIComponent(path)}` : '/login';
}
