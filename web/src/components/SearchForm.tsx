// The search bar above a list: inline fields, Search and Reset. The values go to the list as its
// query params, so a new search restarts paging.
import type { ReactNode } from 'react';
import { Button, Form, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface SearchField {
  name: string;
  label: ReactNode;
  input: ReactNode;
}

export function SearchForm<V extends object>(props: { fields: SearchField[]; onSearch: (values: V) => void; initialValues?: Partial<V>; extra?: ReactNode }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const submit = () => props.onSearch(clean(form.getFieldsValue() as Record<string, unknown>) as V);
  return (
    <Form form={form} layout="inline" initialValues={props.initialValues} onFinish={submit} className="search-form" style={{ marginBottom: 12, rowGap: 8 }}>
      {props.fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label}>
          {f.input}
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('widgets:search.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              submit();
            }}
          >
            {t('widgets:search.reset')}
          </Button>
          {props.extra}
        </Space>
      </Form.Item>
    </Form>
  );
}

/** Drops empty inputs so they do not reach the call as filters. */
export function clean(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values ?? {}).filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '')).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]),
  );
}
