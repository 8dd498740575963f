import { useState, type ReactNode } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOG_ACTIONS } from '@wt/contract';
import { call, ApiError } from '../../api/client';
import { fieldRule } from '../../forms/validate';
import { validateChangePassword, type ChangePasswordValues } from '../../forms/passwords';
import { logAction, logout } from '../../session/auth';
import { useSession } from '../../stores/session';

/** How long the success message stays before the logout (SPEC §8). */
export const PASSWORD_CHANGED_MS = 2000;

/** `forced`: the password was reset and must be changed now: the dialog cannot be closed. */
export function ChangePasswordDialog({ open, onClose, forced = false, notice }: { open: boolean; onClose: () => void; forced?: boolean; notice?: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ChangePasswordValues>();
  const [busy, setBusy] = useState(false);
  const userId = useSession((s) => s.userId);
  const rule = (field: keyof ChangePasswordValues) => fieldRule(validateChangePassword, form, field, t);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !userId) return;
    setBusy(true);
    try {
      await call(
        '/User/ChangePassword',
        { UserId: userId, OldPass: values.OldPass!, NewPass: values.NewPass!, RePass: values.RePass },
        { keepSessionOnTokenError: true },
      );
      void message.success(t('shell:password.success'), PASSWORD_CHANGED_MS / 1000);
      await new Promise((r) => setTimeout(r, PASSWORD_CHANGED_MS));
      await logAction(LOG_ACTIONS.PASSWORD_CHANGE);
      onClose();
      await logout();
    } catch (err) {
      if (err instanceof ApiError && err.tokenInvalid) void message.error(t('shell:password.tokenFailed'));
      else if (err instanceof ApiError && err.messageKey === 'auth.oldPasswordWrong') void message.error(t('messages:auth.oldPasswordWrong'));
      else void message.error(t('shell:password.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t('shell:password.title')}
      open={open}
      // Forced: the only other way out is to log out.
      onCancel={forced ? () => void logout() : onClose}
      closable={!forced}
      keyboard={!forced}
      maskClosable={false}
      centered={forced}
      onOk={submit}
      confirmLoading={busy}
      okText={t('common:ok')}
      cancelText={forced ? t('shell:user.logout') : t('common:cancel')}
      destroyOnHidden
      afterClose={() => form.resetFields()}
      width={440}
    >
      {notice}
      <Form form={form} layout="vertical" requiredMark autoComplete="off" preserve={false}>
        <Form.Item name="OldPass" label={t('shell:password.oldPassword')} rules={[rule('OldPass')]} required>
          <Input.Password placeholder={t('shell:password.oldPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="NewPass" label={t('shell:password.newPassword')} rules={[rule('NewPass')]} dependencies={['OldPass']} required>
          <Input.Password placeholder={t('shell:password.newPlaceholder')} autoComplete="new-password" maxLength={30} />
        </Form.Item>
        <Form.Item name="RePass" label={t('shell:password.confirmPassword')} rules={[rule('RePass')]} dependencies={['NewPass']} required>
          <Input.Password placeholder={t('shell:password.confirmPlaceholder')} autoComplete="new-password" maxLength={30} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
