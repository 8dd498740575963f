// Which actions of the permission sets (SPEC §6) the logged-in user may use: the console hides the
// buttons of the others (the server refuses them anyway). UserInfo's Permissions lists the actions
// of the account's set, or '*' for every action.
import { useCallback } from 'react';
import type { Action, UserInfo } from '@wt/contract';
import { useSession } from '../stores/session';
import { isPathPermitted } from './index';

/** Whether a user with this information may use `action`; nobody before the information is read. */
export function canDo(info: Pick<UserInfo, 'Permissions'> | null | undefined, action: Action): boolean {
  const list = info?.Permissions;
  if (!list) return false;
  return list.includes('*') || list.includes(action);
}

/** `can(action)` for the logged-in user; re-renders when the user's information changes. */
export function useCan(): (action: Action) => boolean {
  const permissions = useSession((s) => s.userInfo?.Permissions);
  return useCallback((action: Action) => canDo(permissions ? { Permissions: permissions } : null, action), [permissions]);
}

/** `mayOpen(path)`: whether the logged-in user's permitted routes hold the page (a link to it would otherwise lead to /404). */
export function useMayOpen(): (path: string) => boolean {
  const permitted = useSession((s) => s.permitted);
  return useCallback((path: string) => isPathPermitted(permitted, path.split('?')[0]!), [permitted]);
}
