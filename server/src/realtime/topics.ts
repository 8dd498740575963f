// Bus topics the realtime hub listens to besides the pipeline's device topics (pipeline/events.ts).
import type { AlarmPush } from '@wt/contract';

export const REALTIME_TOPICS = {
  /** An alarm the rule engine raised; the hub pushes it to the consoles of the owner's subtree. */
  alarmRaised: 'alarm.raised',
  /** Alarms the platform cleared (their condition ended); the hub tells the consoles of the owner's subtree. */
  alarmCleared: 'alarm.cleared',
  /** Tells the consoles of a subtree to refetch their data (notification type 56). */
  refresh: 'realtime.refresh',
  /** Sessions ended (logout, password changed or reset): their open sockets are closed. */
  sessionsEnded: 'auth.sessions.ended',
  /** An account moved with its subtree: every cached path starting with `from` now starts with `to`. */
  accountsMoved: 'account.subtree.moved',
  /** An account's permission set, type, forced-password flag or parent changed, or a set changed. */
  accountsChanged: 'auth.accounts.changed',
} as const;

export interface AccountsMovedEvent {
  accountId: number;
  /** The moved account's path before ('/1/5/') and after ('/1/7/5/'). */
  from: string;
  to: string;
}

/** The path of an account of a moved subtree, after the move; unchanged outside it. */
export function movedPath(path: string, e: Pick<AccountsMovedEvent, 'from' | 'to'>): string {
  return path.startsWith(e.from) ? e.to + path.slice(e.from.length) : path;
}

export interface SessionsEndedEvent {
  accountId: number;
  /** Only this session; without it every session of the account... */
  sessionId?: number;
  /** ...except this one. */
  exceptSessionId?: number;
}

/** Cached callers to read afresh: an account with its subtree, or every account using a set. */
export interface AccountsChangedEvent {
  accountId?: number;
  setId?: number;
}

/** Close code of a socket whose session ended (the console logs out rather than reconnecting). */
export const SESSION_ENDED_CLOSE = 4401;

export interface AlarmRaisedEvent extends AlarmPush {
  deviceId: number;
  /** Materialized path of the device's owner ('/1/5/'). */
  accountPath: string;
}

export interface RefreshEvent {
  /** Subtree to refresh. */
  accountPath: string;
}

/** Alarms of one device the platform cleared in one transaction, published after its commit. */
export interface AlarmClearedEvent {
  deviceId: number;
  accountPath: string;
  alarms: { id: number; type: number }[];
}
