// Picks several accounts of the caller's subtree: the account tree (nodes load as they open) with
// the server's search by login name, company or contact. Accounts already chosen are shown by name
// even before their branch is opened. The fence dialog and the escalation steps both use it; what
// differs between them (the chosen accounts' label, placeholder, drop-down width) is a prop.
import { TreeSelect } from 'antd';
import { useAccountTree } from '../pages/account/accounts/useAccountTree';

/** An account known only by id and names (one already chosen, e.g. a fence's watched account). */
export interface KnownAccount {
  UserId: number;
  LoginName: string;
  Name: string;
}

export interface AccountTreeSelectProps {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Chosen accounts to name before their branch loads. */
  known?: KnownAccount[];
  /** How a chosen account reads in the field: its plain label (login name) or the tree's title. */
  chosenLabel?: 'label' | 'title';
  placeholder?: string;
  /** Shown when the search matches no account. */
  noMatchText?: string;
  /** The drop-down as wide as the field (true) or as its content (false). */
  matchFieldWidth?: boolean;
  testId?: string;
}

export function AccountTreeSelect({
  value,
  onChange,
  known,
  chosenLabel = 'label',
  placeholder,
  noMatchText,
  matchFieldWidth = true,
  testId,
}: AccountTreeSelectProps) {
  const tree = useAccountTree({ known });
  return (
    <TreeSelect<number[]>
      {...tree.props}
      multiple
      value={value}
      onChange={(v) => onChange?.(v)}
      treeNodeLabelProp={chosenLabel}
      placeholder={placeholder}
      notFoundContent={tree.noMatch && noMatchText ? noMatchText : undefined}
      popupMatchSelectWidth={matchFieldWidth}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}
