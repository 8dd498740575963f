// Picks the accounts a fence watches: several accounts of the caller's subtree, as the account
// tree (nodes load as they open) with the server's search by login name, company or contact.
// Accounts already chosen are shown by name even before their branch is opened.
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccountTree } from '../accounts/useAccountTree';

/** An account known only by id and names (a fence's watched account). */
export interface KnownAccount {
  UserId: number;
  LoginName: string;
  Name: string;
}

export function WatchedAccountsSelect({
  value,
  onChange,
  known,
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
  known?: KnownAccount[];
}) {
  const { t } = useTranslation('accountFence');
  const tree = useAccountTree({ known });
  return (
    <TreeSelect<number[]>
      {...tree.props}
      multiple
      value={value}
      onChange={(v) => onChange?.(v)}
      treeNodeLabelProp="label"
      placeholder={t('form.accountsPlaceholder')}
      notFoundContent={tree.noMatch ? t('form.noAccount') : undefined}
      style={{ width: '100%' }}
      data-testid="fence-accounts"
    />
  );
}
