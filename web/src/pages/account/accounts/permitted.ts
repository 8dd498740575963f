// Which account actions the signed-in user's permission set grants (UserInfo.Permissions: the
// set's actions, or '*' for every one); buttons it lacks are not shown.
import type { Action } from '@wt/contract';
import { useSession } from '../../../stores/session';

export function useAccountActions(): (action: Action) => boolean {
  const granted = useSession((s) => s.userInfo?.Permissions);
  return (action) => !!granted && (granted.includes('*') || granted.includes(action));
}
