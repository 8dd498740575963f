// An administrator's settings of one device: the networks it may connect from (addresses and CIDR
// ranges, typed one by one), checked with the contract's schema; an entry that is none names itself.
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { device as deviceSchemas, MAX_ALLOWED_NETWORKS } from '@wt/contract';
import { call } from '../../../api/client';
import { FormDialog } from '../../../patterns';
import type { DeviceItem } from '../queries';

type Values = z.input<typeof deviceSchemas.editDeviceRequest>;

export function EditDeviceDialog({ device, onClose }: { device: DeviceItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<Values>
      open={device !== null}
      title={t('devices:edit.title', { name: device?.Name || device?.Imei })}
      schema={deviceSchemas.editDeviceRequest}
      initial={{ DeviceId: device?.DeviceId, AllowedNetworks: device?.AllowedNetworks ?? [] }}
      submit={(v) => call('/Device/EditDevice', v)}
      invalidate={[['devices']]}
      onClose={onClose}
      testId="edit-device-form"
      fields={[
        {
          name: 'AllowedNetworks',
          label: t('devices:edit.allowedNetworks'),
          extra: t('devices:edit.allowedNetworksHelp'),
          input: (
            <Select
              mode="tags"
              tokenSeparators={[',', ' ', ';']}
              maxCount={MAX_ALLOWED_NETWORKS}
              placeholder={t('devices:edit.allowedNetworksPlaceholder')}
              data-testid="allowed-networks"
            />
          ),
        },
      ]}
    />
  );
}
