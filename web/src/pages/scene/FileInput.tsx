// A file field of a form (a scene's SVG map and icon, a floor's PNG plan): the file is checked in
// the browser first (type by content, size; a refusal is shown and nothing is kept), then held as
// a data: URL, the form field's value. The stored file (its URL) is previewed until another is
// picked. Previews are <img> elements: an uploaded SVG is user content and is never put inline.
import { useState, type ReactNode } from 'react';
import { App, Button, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { readDataUrl, type FileRefusal } from './files';

export interface FileInputProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  accept: string;
  /** A refusal (message key and parameters) keeps the file out. */
  check: (file: File) => Promise<FileRefusal | null>;
  /** The stored file, previewed while no other is picked. */
  currentUrl?: string | null;
  /** Preview height in pixels. */
  previewHeight?: number;
  /** Offers to remove the stored file (sends ''). */
  removable?: boolean;
  /** Below the preview: the picked file's details (a plan's pixel size). */
  details?: ReactNode;
  testId: string;
}

export function FileInput(props: FileInputProps) {
  const { t } = useTranslation('scene');
  const { message } = App.useApp();
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (file: File) => {
    setBusy(true);
    try {
      const refusal = await props.check(file);
      if (refusal) {
        message.error(t(`messages:${refusal.key}`, refusal.params ?? {}));
        return;
      }
      props.onChange?.(await readDataUrl(file));
      setName(file.name);
    } finally {
      setBusy(false);
    }
  };
  const shown = props.value || (props.value === undefined ? props.currentUrl : null);
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }}>
      <Space wrap>
        <Upload
          accept={props.accept}
          showUploadList={false}
          beforeUpload={(file) => {
            void pick(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} data-testid={props.testId}>
            {shown ? t('file.replace') : t('file.choose')}
          </Button>
        </Upload>
        {props.removable && shown ? (
          <Button
            icon={<DeleteOutlined />}
            onClick={() => {
              props.onChange?.('');
              setName(null);
            }}
          >
            {t('file.remove')}
          </Button>
        ) : null}
        {name ? <Typography.Text type="secondary">{name}</Typography.Text> : null}
      </Space>
      {shown ? (
        <img
          src={shown}
          alt=""
          data-testid={`${props.testId}-preview`}
          style={{ maxHeight: props.previewHeight ?? 120, maxWidth: '100%', border: '1px solid #f0f0f0', background: '#fff' }}
        />
      ) : null}
      {props.details}
    </Space>
  );
}
