// User types and role labels (SPEC §4, §6).
export const ROLE_LABELS = [
  'admin',
  'editor',
  'editor-indoor',
  'editor-datashow',
  'editor-all-indoor-datashow',
  'editor-healthdata',
  'editor-healthdata-innor',
  'editor-healthdata-datashow',
  'editor-all-indoor-datashow-health',
] as const;
export type RoleLabel = (typeof ROLE_LABELS)[number];

export const USER_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export type UserType = (typeof USER_TYPES)[number];

const LABEL_BY_TYPE: Record<UserType, RoleLabel> = {
  1: 'editor',
  2: 'editor',
  3: 'admin',
  4: 'editor-indoor',
  5: 'editor-datashow',
  6: 'editor-all-indoor-datashow',
  7: 'editor-healthdata',
  8: 'editor-healthdata-innor',
  9: 'editor-healthdata-datashow',
  10: 'editor-all-indoor-datashow-health',
};

export const ADMIN_USER_TYPE = 3;

/**
 * The platform's administrators: the root account, and the administrators (user type 3) of the
 * operator kind directly below it, the platform's own staff. Only they change what every tenant
 * shares (alarm types, models, protocols, the command catalogue, app versions, SMS credit, agent
 * authorization). An account of user type 3 anywhere else administers its own branch only. This
 * is the one definition; the server's call gate, its handlers and the console all ask it.
 */
export function isPlatformAdministrator(account: { path: string; userType: number; kind: string }): boolean {
  const depth = account.path.split('/').filter(Boolean).length;
  if (depth === 1) return true;
  return depth === 2 && account.userType === ADMIN_USER_TYPE && account.kind === 'operator';
}
/** Type given to a user whose route list lacks the health detail page (SPEC §4). */
export const NO_HEALTH_USER_TYPE = 7;
export const HEALTH_DETAIL_ROUTE = '/health/detail';

export function roleLabelOf(userType: number): RoleLabel {
  return LABEL_BY_TYPE[userType as UserType] ?? 'editor';
}

/** Splits the server's comma-separated routes string, dropping blanks. */
export function parseRoutes(routes: string | null | undefined): string[] {
  if (!routes) return [];
  return routes
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

/**
 * Effective user type (SPEC §4): with an empty route list it is the server's type; otherwise it is
 * the server's type only when the list holds the health detail route, else 7.
 */
export function effectiveUserType(serverType: number, routes: string | string[] | null | undefined): number {
  const list = Array.isArray(routes) ? routes : parseRoutes(routes);
  if (list.length === 0) return serverType;
  return list.includes(HEALTH_DETAIL_ROUTE) ? serverType : NO_HEALTH_USER_TYPE;
}

/** Account kinds of SPEC §3. */
export const ACCOUNT_KINDS = ['user', 'operator', 'agent'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
