// Picks any account of the caller's subtree, the owner pickers' one widget (device move,
// integrations, fences): the account tree, whose nodes load as they open, and a search by login
// name, company or contact on the server; a found account joins the tree under its ancestors.
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccountTree } from '../../account/accounts/useAccountTree';

export function AccountSelect({
  value,
  onChange,
  exclude,
  testId = 'account-select',
}: {
  value?: number;
  onChange?: (v: number) => void;
  /** Accounts that cannot be chosen (shown, greyed). */
  exclude?: number[];
  testId?: string;
}) {
  const { t } = useTranslation();
  const tree = useAccountTree({ exclude });
  return (
    <TreeSelect<number>
      {...tree.props}
      value={value}
      onChange={(v) => onChange?.(v)}
      treeNodeLabelProp="title"
      placeholder={t('devices:move.pickAccount')}
      notFoundContent={tree.noMatch ? t('accounts:tree.noMatch') : undefined}
      popupMatchSelectWidth={false}
      style={{ width: '100%', minWidth: 240 }}
      data-testid={testId}
    />
  );
}
