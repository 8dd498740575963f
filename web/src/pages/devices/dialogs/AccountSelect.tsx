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
  id,
}: {
  value?: number;
  onChange?: (v: number) => void;
  /** Accounts that cannot be chosen (shown, greyed). */
  exclude?: number[];
  testId?: string;
  /** The id of its search field, for a `<label htmlFor>` outside a form (a form item gives its own). */
  id?: string;
}) {
  const { t } = useTranslation();
  const tree = useAccountTree({ exclude });
  return (
    <TreeSelect<number>
      {...tree.props}
      id={id}
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
