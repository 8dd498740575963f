// Accounts tree, permission sets, sessions and the login log (SPEC §3, §4, §6).
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const permissionSets = pgTable('permission_sets', {
  id: serial('id').primaryKey(),
  ownerId: integer('owner_id'),
  key: text('key').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** Comma-separated permitted routes (SPEC §6); empty means by role. */
  routes: text('routes').notNull().default(''),
  /** Comma-separated actions (contract permissions.ts) the set grants below its routes. */
  actions: text('actions').notNull().default(''),
  /** One of the two default sets every account may use ("admin", "custom"), not owned by anyone. */
  builtIn: boolean('built_in').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id'),
    /** Materialized path of ids, '/1/5/12/': "this account and all below it" is one prefix match. */
    path: text('path').notNull(),
    loginName: text('login_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    kind: text('kind').notNull().default('user'),
    userType: smallint('user_type').notNull().default(1),
    permissionSetId: integer('permission_set_id'),
    username: text('username').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    pageName: text('page_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    address: text('address').notNull().default(''),
    companyName: text('company_name').notNull().default(''),
    contact: text('contact').notNull().default(''),
    introduction: text('introduction').notNull().default(''),
    language: text('language').notNull().default('zh-CN'),
    timeZoneOffset: integer('time_zone_offset').notNull().default(480),
    isShowMapLabel: smallint('is_show_map_label').notNull().default(1),
    isInnerDoor: smallint('is_inner_door').notNull().default(1),
    isDataShow: smallint('is_data_show').notNull().default(1),
    isHealthData: smallint('is_health_data').notNull().default(1),
    isShowMonitorFence: smallint('is_show_monitor_fence').notNull().default(2),
    switchAnimation: smallint('switch_animation').notNull().default(1),
    switchFunctionSendCmd: smallint('switch_function_send_cmd').notNull().default(2),
    isWeatherConfig: smallint('is_weather_config').notNull().default(2),
    isSendMsgByRole: smallint('is_send_msg_by_role').notNull().default(2),
    isSendMessage: smallint('is_send_message').notNull().default(2),
    alarmSet: smallint('alarm_set').notNull().default(1),
    agentAuthorized: boolean('agent_authorized').notNull().default(false),
    /**
     * How the account came to be: 'registered' by its owner (/User/Register), or 'created' by an
     * account above it (and the demo's). An authorized agent may take only registered owners.
     */
    origin: text('origin').notNull().default('created'),
    /** Set by a password reset: the next login must change the password before anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_login_name_uq').on(sql`lower(${t.loginName})`),
    index('accounts_email_idx').on(sql`lower(${t.email})`),
    index('accounts_path_idx').on(t.path.op('text_pattern_ops')),
    index('accounts_parent_idx').on(t.parentId),
  ],
);

/** One row per login; the refresh token rotates within it (only its hash is stored). */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    /** The hash of the token this one replaced: presenting it again means theft, and ends the session. */
    previousHash: text('previous_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    client: text('client').notNull().default(''),
  },
  (t) => [
    index('sessions_account_idx').on(t.accountId),
    uniqueIndex('sessions_refresh_uq').on(t.refreshHash),
  ],
);

/** The columns of a one-time link mailed to an account: its token is stored only as a hash. */
const mailedLink = () => ({
  id: serial('id').primaryKey(),
  accountId: integer('account_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const passwordResets = pgTable('password_resets', mailedLink());

/**
 * A browser-unlock link mailed to an account whose logins from new places are delayed: opening it
 * marks that browser as the account's own.
 */
export const loginUnlocks = pgTable('login_unlocks', mailedLink());


/**
 * Failed logins, shared by every process (lib/login-limiter.ts): one row per account name and
 * source (`<name>|<source>`) and one per account name from everywhere (`<name>|*`).
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    /** Until when attempts are refused without being checked (the source's lock, the account's delay). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** When the last unlock link went out for the account name (its row only). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [index('login_failures_last_idx').on(t.lastAt)],
);

export const loginLogs = pgTable(
  'login_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id').notNull(),
    loginName: text('login_name').notNull().default(''),
    actionCode: integer('action_code').notNull(),
    ip: text('ip').notNull().default(''),
    ipLocation: text('ip_location').notNull().default(''),
    clientType: text('client_type').notNull().default(''),
    clientCode: integer('client_code').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_logs_account_time_idx').on(t.accountId, t.createdAt)],
);

/**
 * Platform info of an account (SPEC §3): its brand, seen by the account and every account below it
 * that has none of its own (white label), and on the login page opened by its key or host name.
 */
export const platformBrands = pgTable(
  'platform_brands',
  {
    accountId: integer('account_id').primaryKey(),
    /** `/login?platform=<key>`: lower-case letters, digits and dashes. */
    key: text('key'),
    /** A host name the console is served on for this brand (agent.example.com). */
    hostName: text('host_name'),
    title: text('title').notNull().default(''),
    pageTitle: text('page_title').notNull().default(''),
    /** File name of the icon under DATA_DIR/brand, empty for none. */
    icon: text('icon').notNull().default(''),
    companyName: text('company_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    address: text('address').notNull().default(''),
    /** Comma-separated menu routes this brand hides from its accounts' menus. */
    hiddenMenus: text('hidden_menus').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('platform_brands_key_uq').on(t.key),
    uniqueIndex('platform_brands_host_uq').on(sql`lower(${t.hostName})`),
  ],
);

/** Every call that changes something: who, when, from where, which call, on what, and how it ended. */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id').notNull(),
    /** The caller's account path when it acted, so an ancestor reads its subtree's log with a prefix match. */
    accountPath: text('account_path').notNull(),
    loginName: text('login_name').notNull().default(''),
    /** The call's path as the registry spells it. */
    call: text('call').notNull(),
    /** The permission action the call needs (contract permissions.ts). */
    action: text('action').notNull().default(''),
    /** What the call acted on, short (ids, IMEIs, names), bounded. */
    object: text('object').notNull().default(''),
    /** 0 on success, else the failure's State. */
    state: integer('state').notNull().default(0),
    /** Empty on success, else the failure's message key. */
    errorKey: text('error_key').notNull().default(''),
    /** Structured details when a call reports per-item outcomes (JSON), bounded. */
    detail: text('detail').notNull().default(''),
    ip: text('ip').notNull().default(''),
    ipLocation: text('ip_location').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('operation_logs_time_idx').on(t.createdAt),
    index('operation_logs_path_time_idx').on(t.accountPath.op('text_pattern_ops'), t.createdAt),
  ],
);

/** Small key/value settings of the installation (generated secrets, platform info). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
