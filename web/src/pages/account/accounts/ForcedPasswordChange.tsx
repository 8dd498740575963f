// After a password reset the account must change its password before anything else (the server
// refuses every other call meanwhile): the shell shows this screen instead of the console until the
// change succeeds, which then logs out as every password change does (SPEC §4, §8).
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordDialog } from '../../../app/shell/ChangePasswordDialog';

export function ForcedPasswordChange() {
  const { t } = useTranslation();
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5' }} data-testid="forced-password">
      <ChangePasswordDialog open forced onClose={() => undefined} notice={<Alert type="warning" showIcon message={t('accounts:forced.text')} style={{ marginBottom: 16 }} />} />
    </div>
  );
}
