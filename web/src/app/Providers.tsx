import { useEffect, useMemo, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/en';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@wt/contract';
import { queryClient } from './queryClient';
import { useSettings } from '../stores/settings';
import { useApp } from '../stores/app';
import { currentLocale } from '../i18n';
import { themeConfig } from './theme';

const ANTD_LOCALES = { 'zh-CN': zhCN, 'zh-TW': zhTW, en: enUS } as const;
const DAYJS_LOCALES: Record<Locale, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', en: 'en' };

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = currentLocale();
  const themeColor = useSettings((s) => s.themeColor);
  const size = useApp((s) => s.size);
  const theme = useMemo(() => themeConfig(themeColor), [themeColor]);

  useEffect(() => {
    dayjs.locale(DAYJS_LOCALES[locale]);
  }, [locale, i18n.language]);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={ANTD_LOCALES[locale]} componentSize={size} theme={theme}>
        {/*
          Notifications at the top start below the header, clear of its buttons (the alarm bell); those
          at the bottom start above the map's zoom buttons (map.css .wt-map-zoom).
        */}
        <AntApp notification={{ top: 72, bottom: 120 }}>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
