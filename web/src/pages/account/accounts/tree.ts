// The caller's subtree as the console reads it: nodes loaded as they open, and searches that answer
// the way down to each match. Shared by the accounts page and every owner picker.
import type { z } from 'zod';
import type { account } from '@wt/contract';
import { call } from '../../../api/client';

export type AccountNode = z.infer<typeof account.accountNodeSchema>;
export type AccountRow = z.infer<typeof account.accountRowSchema>;
export type FoundAccount = AccountNode & { Ancestors: AccountNode[] };

/** Query keys of the area; invalidating ACCOUNT_KEYS.all reloads tree, tables and pickers. */
export const ACCOUNT_KEYS = {
  all: ['accounts'] as const,
  node: (id: number | undefined) => ['accounts', 'node', id ?? 'self'] as const,
  children: (id: number | undefined) => ['accounts', 'children', id ?? 'self'] as const,
  search: (keyword: string) => ['accounts', 'search', keyword] as const,
};

/** Children a node shows at most; beyond that the search finds them. */
export const NODE_PAGE = 500;

export function loadNode(id?: number) {
  return call('/user/allChildrenUsers', { UserId: id, PageNo: 1, PageCount: NODE_PAGE });
}

export async function searchAccounts(keyword: string): Promise<FoundAccount[]> {
  return (await call('/user/searchAccountByName', { Keyword: keyword, Limit: 20 })).Items;
}

/** "login name (company)" as a tree shows an account. */
export function nodeLabel(n: Pick<AccountNode, 'LoginName' | 'companyName' | 'Username'>): string {
  const extra = n.companyName || (n.Username && n.Username !== n.LoginName ? n.Username : '');
  return extra ? `${n.LoginName} (${extra})` : n.LoginName;
}
