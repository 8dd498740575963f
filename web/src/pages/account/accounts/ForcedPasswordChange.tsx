// After a password reset the account must change its password before anything else (the server
// refuses every other call meanwhile): the shell shows this screen instead of the console until the
// change succeeds, which then logs out as every password change does (SPEC §4, §8).
import { Card, Result } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ChangePasswordDialog } from '../../../app/shell/ChangePasswordDialog';

export function ForcedPasswordChange() {
  const { t } = useTranslation();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5' }} data-testid="forced-password">
      <Card style={{ maxWidth: 520 }}>
        <Result
          icon={<LockOutlined />}
          title={t('accounts:forced.title')}
          subTitle={t('accounts:forced.text')}
        />
      </Card>
      <ChangePasswordDialog open forced onClose={() => undefined} />
    </div>
  );
}
