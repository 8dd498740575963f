// Picks an administrative district (province → prefecture → county, GB/T 2260 code) for a
// district-shaped fence. A province or prefecture alone may be chosen; names are searched in the
// console's language. Where the data has no boundaries below the chosen district, or none at all,
// a note says so. The names tree is loaded when the picker first appears.
import { useEffect, useMemo, useState } from 'react';
import { Cascader, Spin, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { districtNodeName, loadDistrictTree, type DistrictNode } from '../map/districts';

export interface DistrictPickerProps {
  /** The district's 6-digit code. */
  value?: string;
  onChange?: (code: string | undefined) => void;
  id?: string;
  disabled?: boolean;
  placeholder?: string;
  status?: 'error' | 'warning';
  style?: CSSProperties;
}

interface Option {
  value: string;
  label: string;
  missing?: 'below' | 'all';
  disabled?: boolean;
  children?: Option[];
}

function optionsOf(nodes: DistrictNode[], lang: string): Option[] {
  return nodes.map((n) => ({
    value: n.code,
    label: districtNodeName(n, lang),
    ...(n.missing ? { missing: n.missing } : {}),
    ...(n.missing === 'all' ? { disabled: true } : {}),
    ...(n.children ? { children: optionsOf(n.children, lang) } : {}),
  }));
}

/** The codes from the province down to this one, or [] when it is not in the tree. */
function pathTo(options: Option[], code: string | undefined): Option[] {
  if (!code) return [];
  for (const o of options) {
    if (o.value === code) return [o];
    if (o.children && code.startsWith(o.value.slice(0, 2))) {
      const below = pathTo(o.children, code);
      if (below.length) return [o, ...below];
    }
  }
  return [];
}

export function DistrictPicker({ value, onChange, id, disabled, placeholder, status, style }: DistrictPickerProps) {
  const { t, i18n } = useTranslation('districts');
  const [tree, setTree] = useState<DistrictNode[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadDistrictTree().then(
      (nodes) => live && setTree(nodes),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const lang = i18n.language;
  const options = useMemo(() => (tree ? optionsOf(tree, lang) : []), [tree, lang]);
  const selected = useMemo(() => pathTo(options, value), [options, value]);
  const last = selected.at(-1);

  return (
    <div style={style}>
      <Cascader<Option>
        id={id}
        style={{ width: '100%' }}
        options={options}
        value={selected.map((o) => o.value)}
        onChange={(codes) => onChange?.(codes?.length ? String(codes.at(-1)) : undefined)}
        changeOnSelect
        allowClear
        disabled={disabled}
        status={status}
        placeholder={placeholder ?? t('placeholder')}
        displayRender={(labels) => labels.join(' / ')}
        notFoundContent={tree ? t('notFound') : failed ? t('loadFailed') : <Spin size="small" />}
        optionRender={(o) =>
          o.missing === 'all' ? (
            <span>
              {o.label} <Typography.Text type="secondary">({t('noBoundaryShort')})</Typography.Text>
            </span>
          ) : (
            o.label
          )
        }
        showSearch={{
          filter: (input, path) => {
            const q = input.trim().toLowerCase();
            return path.some((o) => String(o.label).toLowerCase().includes(q));
          },
        }}
      />
      {last?.missing === 'below' && (
        <Typography.Text type="secondary" data-testid="district-note">
          {t('noCounties')}
        </Typography.Text>
      )}
      {last?.missing === 'all' && (
        <Typography.Text type="warning" data-testid="district-note">
          {t('noBoundary')}
        </Typography.Text>
      )}
    </div>
  );
}
