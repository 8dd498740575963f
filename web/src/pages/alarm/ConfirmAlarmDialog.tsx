// Confirming alarms with a remark: one alarm, all of today's of a device, or all of today's. The
// record list and the monitor's alarm panel share it.
import { Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmAlarmRequest } from '@wt/contract';
import { FormDialog } from '../../patterns';

/** The remark is the one field of every confirmation (its bound is the contract's). */
const remarkSchema = confirmAlarmRequest.pick({ Remark: true });

export function ConfirmAlarmDialog({
  open,
  title,
  hint,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  hint?: string;
  /** Confirms with the remark (and says what was confirmed); the dialog closes when it resolves and shows the error when it fails. */
  onSubmit: (remark: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FormDialog<{ Remark: string }>
      open={open}
      title={title}
      schema={remarkSchema}
      initial={{ Remark: '' }}
      submit={(v) => onSubmit((v.Remark ?? '').trim())}
      successMessage={false}
      onClose={onClose}
      okText={t('alarm:record.confirm')}
      header={hint ? <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph> : null}
      fields={[
        {
          name: 'Remark',
          input: (
            <Input.TextArea
              rows={3}
              maxLength={500}
              placeholder={t('alarm:record.remarkPlaceholder')}
              data-testid="confirm-remark"
            />
          ),
        },
      ]}
    />
  );
}
