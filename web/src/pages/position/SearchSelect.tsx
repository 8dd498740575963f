// A select whose options are searched on the server as the user types (beacons, devices, masters).
import { useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { userDataOptions } from '../../i18n/texts';
import { call } from '../../api/client';

type Value = string | number;

export function SearchSelect<V extends Value>(props: {
  /** Query key prefix; the search text is added to it. */
  queryKey: readonly unknown[];
  search: (text: string) => Promise<{ value: V; label: string }[]>;
  value?: V | V[];
  onChange?: (v: never) => void;
  multiple?: boolean;
  placeholder: string;
  testId: string;
}) {
  const [text, setText] = useState('');
  const found = useQuery({ queryKey: [...props.queryKey, text], queryFn: () => props.search(text) });
  return (
    <Select
      mode={props.multiple ? 'multiple' : undefined}
      value={props.value as never}
      onChange={props.onChange}
      placeholder={props.placeholder}
      showSearch={{ filterOption: false, onSearch: setText }}
      loading={found.isFetching}
      options={found.data ?? []}
      {...userDataOptions}
      data-testid={props.testId}
    />
  );
}

/** Devices of the subtree picked by IMEI (digits) or name, as ids. */
export function DeviceIdPicker(props: { value?: number[]; onChange?: (v: number[]) => void; placeholder: string; testId: string }) {
  return (
    <SearchSelect<number>
      multiple
      queryKey={['devices', 'pick-id']}
      search={async (text) =>
        (await call('/Device/devicesByUserId', /^\d+$/.test(text) ? { PageNo: 1, PageCount: 30, Imei: text } : { PageNo: 1, PageCount: 30, Name: text || undefined })).Items.map((d) => ({
          value: d.DeviceId,
          label: `${d.Name || d.Imei} (${d.Imei})`,
        }))
      }
      value={props.value}
      onChange={props.onChange}
      placeholder={props.placeholder}
      testId={props.testId}
    />
  );
}
