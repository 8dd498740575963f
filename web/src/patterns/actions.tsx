// Buttons described as data: a row's actions and a list's toolbar. An action either opens
// something (`onClick`) or calls the server (`run`), optionally after a pop-up confirmation, with
// a busy spinner on its button, a success or error message and the invalidation of the lists it
// changes. An action the user may not use is left out (`visible: false`).
import { isValidElement, useState, type Key, type ReactElement, type ReactNode } from 'react';
import { App, Button, Popconfirm, Space, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Paged } from '../components/DataTable';
import { performAction, type ActionOptions } from './useAction';

interface ActionBase<R> extends ActionOptions<R> {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  /** Left out when false (the user lacks the right). Default true. */
  visible?: boolean;
  testId?: string;
  /** The button's tooltip (why it is disabled ...). */
  title?: string;
}

/** An action of a row: `onClick` opens something, `run` calls the server. */
export interface RowAction<R = unknown> extends ActionBase<R> {
  /** Asked in a pop-up confirmation before `run` (or `onClick`). */
  confirm?: ReactNode;
  onClick?: () => void;
  run?: () => Promise<R>;
}

/**
 * A row action whose call's result is typed for its `success` and `onDone`:
 * `rowAction({ key: 'rotate', run: () => call(...), onDone: (r) => show(r.Token) })`.
 */
export function rowAction<R>(action: RowAction<R>): RowAction {
  return action as RowAction;
}

/** What a toolbar sees: the selection, the last answer of the list, the search in force. */
export interface ListContext<Row> {
  selectedKeys: Key[];
  selectedRows: Row[];
  clearSelection: () => void;
  /** The last answer of the list (its Total, its rows), undefined before the first. */
  data: Paged<Row> | undefined;
  /** The search values in force (as sent to `fetch`). */
  search: Record<string, unknown>;
}

/** A toolbar button; with `batch` it works on the selected rows and is disabled while none is. */
export interface ToolbarAction<Row, R = unknown> extends ActionBase<R> {
  primary?: boolean;
  /** Works on the selected rows: disabled without a selection, the count in its label, the selection cleared after success. */
  batch?: boolean;
  onClick?: (ctx: ListContext<Row>) => void;
  run?: (ctx: ListContext<Row>) => Promise<R>;
  /** The confirmation may name what is selected. */
  confirm?: ReactNode | ((ctx: ListContext<Row>) => ReactNode);
}

/** A toolbar entry: a button described as data, or any element (a count, an export button). */
export type ToolbarEntry<Row> = ToolbarAction<Row> | ReactElement | string | null | false | undefined;

export function isToolbarAction<Row>(x: ToolbarEntry<Row>): x is ToolbarAction<Row> {
  return typeof x === 'object' && x !== null && !isValidElement(x) && 'key' in x && 'label' in x;
}

/** A button that may ask for a confirmation first. */
export function ActionButton(props: {
  action: Pick<ActionBase<unknown>, 'label' | 'icon' | 'danger' | 'disabled' | 'title' | 'testId'>;
  type: 'link' | 'primary' | 'default';
  size?: 'small';
  /** Only the icon, the label in a tooltip and as the accessible name. */
  compact?: boolean;
  confirm?: ReactNode;
  loading?: boolean;
  onPress: () => void;
}) {
  const a = props.action;
  // The confirmation covers the button: its tooltip is kept closed meanwhile, not drawn over it.
  const [confirming, setConfirming] = useState(false);
  const plain = (
    <Button
      type={props.type}
      size={props.size}
      danger={a.danger}
      icon={a.icon}
      disabled={a.disabled}
      loading={props.loading}
      title={props.compact ? undefined : a.title}
      data-testid={a.testId}
      onClick={props.confirm ? undefined : props.onPress}
      aria-label={props.compact && typeof a.label === 'string' ? a.label : undefined}
    >
      {props.compact ? null : a.label}
    </Button>
  );
  const button = props.compact ? (
    <Tooltip title={a.title ?? a.label} {...(confirming ? { open: false } : {})}>
      {plain}
    </Tooltip>
  ) : (
    plain
  );
  if (!props.confirm || a.disabled) return button;
  return (
    <Popconfirm title={props.confirm} onConfirm={props.onPress} okButtonProps={{ danger: a.danger }} onOpenChange={setConfirming}>
      {button}
    </Popconfirm>
  );
}

/** The "add" button of a list's toolbar. */
export function addAction<Row>(
  label: ReactNode,
  onClick: () => void,
  more: Partial<ToolbarAction<Row>> = {},
): ToolbarAction<Row> {
  return { key: 'add', primary: true, icon: <PlusOutlined />, label, onClick, ...more };
}

/**
 * Runs actions' calls one at a time per key: `running` is the key of the one under way, so its
 * button spins. `invalidate` is the default of actions that name none.
 */
export function useActionRunner(invalidate?: readonly (readonly unknown[])[]) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [running, setRunning] = useState<string | null>(null);
  const perform = async <R,>(
    key: string,
    run: () => Promise<R>,
    opts: ActionOptions<R>,
    after?: () => void,
  ): Promise<void> => {
    setRunning(key);
    try {
      const r = await performAction({ message, qc, t }, run, {
        ...opts,
        invalidate: opts.invalidate ?? invalidate,
      });
      if (r.ok) after?.();
    } finally {
      setRunning(null);
    }
  };
  return { running, perform };
}

/**
 * The action buttons of one row (links in an action column). ListPage renders them itself; a
 * table outside a ListPage uses this.
 */
export function RowActions({
  actions,
  invalidate,
  compact,
}: {
  actions: RowAction[];
  invalidate?: readonly (readonly unknown[])[];
  /** Icons only, each named by a tooltip and its accessible label: for tables with many columns and actions. */
  compact?: boolean;
}) {
  const { running, perform } = useActionRunner(invalidate);
  const shown = actions.filter((a) => a.visible !== false);
  if (!shown.length) return null;
  return (
    <Space size={0}>
      {shown.map((a) => (
        <ActionButton
          key={a.key}
          action={a}
          type="link"
          size="small"
          compact={compact && !!a.icon}
          confirm={a.confirm}
          loading={running === a.key}
          onPress={() => (a.run ? void perform(a.key, a.run, a) : a.onClick?.())}
        />
      ))}
    </Space>
  );
}
