// A call started by a button (delete, reset, enable ...): an optional confirmation, a busy flag,
// the success or error message, the invalidation of the lists it changes. `ListPage` runs its row
// and toolbar actions through the same `performAction`.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { errorText } from '../i18n/errors';

/** A text, or one made from the call's result; `false` shows nothing. */
export type ResultText<R> = ReactNode | false | ((result: R) => ReactNode | false);

/** What to do around a call. */
export interface ActionOptions<R = unknown> {
  /** Shown after success; default: nothing (the changed list speaks for itself). */
  success?: ResultText<R>;
  /** Query keys (prefixes) asked again after success. */
  invalidate?: readonly (readonly unknown[])[];
  /** Called with the result after success and invalidation. */
  onDone?: (result: R) => void;
  /**
   * Called with the failure before the default error message; return true when it was handled
   * (shown on a form's fields ...).
   */
  onError?: (error: unknown) => boolean | void;
}

export interface ActionContext {
  message: ReturnType<typeof App.useApp>['message'];
  qc: QueryClient;
  t: TFunction;
}

function textOf<R>(text: ResultText<R> | undefined, result: R): ReactNode | false {
  if (text === undefined || text === null) return false;
  return typeof text === 'function' ? text(result) : text;
}

/** Asks the lists again; a failed refresh does not turn a done change into an error. */
export async function invalidateAll(
  qc: QueryClient,
  keys: readonly (readonly unknown[])[] | undefined,
): Promise<void> {
  if (!keys?.length) return;
  await Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

/**
 * Runs a call with the options' success message, invalidation and error message. Resolves with
 * the result, or undefined when the call failed (its error already shown).
 */
export async function performAction<R>(
  ctx: ActionContext,
  fn: () => Promise<R>,
  opts: ActionOptions<R>,
): Promise<{ ok: true; result: R } | { ok: false; error: unknown }> {
  let result: R;
  try {
    result = await fn();
  } catch (error) {
    if (!opts.onError?.(error)) ctx.message.error(errorText(ctx.t, error));
    return { ok: false, error };
  }
  const text = textOf(opts.success, result);
  if (text !== false && text !== '') ctx.message.success(text);
  await invalidateAll(ctx.qc, opts.invalidate);
  opts.onDone?.(result);
  return { ok: true, result };
}

/** The confirmation asked before the call: a title, or a title with content and button texts. */
export type ConfirmSpec<A extends unknown[]> =
  ReactNode | ((...args: A) => ReactNode | ConfirmOptions) | ConfirmOptions;

export interface ConfirmOptions {
  title: ReactNode;
  content?: ReactNode;
  okText?: ReactNode;
  /** A red OK button (deleting, resetting). Default true. */
  danger?: boolean;
}

function isConfirmOptions(x: unknown): x is ConfirmOptions {
  return typeof x === 'object' && x !== null && 'title' in x && !('$$typeof' in x);
}

export interface UseActionOptions<A extends unknown[], R> extends ActionOptions<R> {
  /** Asked in a modal before the call; the call runs only on OK. */
  confirm?: ConfirmSpec<A>;
}

export interface ActionHandle<A extends unknown[], R> {
  /** Runs the action (after the confirmation, if any); resolves with the result, or undefined when cancelled or failed. */
  run: (...args: A) => Promise<R | undefined>;
  busy: boolean;
  /** The arguments of the call under way (which row's switch spins), null when none. */
  pending: A | null;
}

/**
 * A confirmed action: `const del = useAction((id: number) => call('/X/Delete', { Ids: [id] }),
 * { confirm: (id) => t('x:confirmDelete'), success: t('x:deleted'), invalidate: [KEY] })`, then
 * `<Button loading={del.busy} onClick={() => void del.run(row.Id)} />`.
 */
export function useAction<A extends unknown[], R = unknown>(
  fn: (...args: A) => Promise<R>,
  opts: UseActionOptions<A, R> = {},
): ActionHandle<A, R> {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [pending, setPending] = useState<A | null>(null);
  // The latest function and options, so `run` keeps its identity across renders.
  const latest = useRef({ fn, opts });
  latest.current = { fn, opts };

  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      const { fn: f, opts: o } = latest.current;
      if (o.confirm !== undefined && o.confirm !== null && o.confirm !== false) {
        const spec = typeof o.confirm === 'function' ? o.confirm(...args) : o.confirm;
        const c: ConfirmOptions = isConfirmOptions(spec) ? spec : { title: spec };
        const confirmed = await modal.confirm({
          title: c.title,
          content: c.content,
          okText: c.okText ?? t('common:ok'),
          cancelText: t('common:cancel'),
          okButtonProps: { danger: c.danger ?? true },
        });
        if (!confirmed) return undefined;
      }
      setPending(args);
      try {
        const r = await performAction({ message, qc, t }, () => f(...args), o);
        return r.ok ? r.result : undefined;
      } finally {
        setPending(null);
      }
    },
    [message, modal, qc, t],
  );
  return { run, busy: pending !== null, pending };
}
