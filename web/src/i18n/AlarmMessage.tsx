// An alarm's content on a page: its catalogue key and parameters in the console's language, with
// the parameters people named (a fence's, a location's or a tag's name) marked as user data for the untranslated-text checks.
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { alarmMessageText } from './texts';

/** Parameters of alarm messages that hold names people gave (shown as they are). */
const USER_PARAMS = ['fence', 'location', 'slave'] as const;
const MARK = '\u0000';

export function AlarmMessage({ messageKey, params, text }: { messageKey?: string; params?: Record<string, unknown>; text: string }) {
  const { t } = useTranslation();
  const given = USER_PARAMS.filter((p) => typeof params?.[p] === 'string' && params[p] !== '');
  if (!messageKey || !given.length) return <>{alarmMessageText(t, messageKey, params, text)}</>;
  // Render with markers in place of the names, then put each name back in a marked span.
  const marked = { ...params, ...Object.fromEntries(given.map((p) => [p, `${MARK}${p}${MARK}`])) };
  const parts = alarmMessageText(t, messageKey, marked, text).split(MARK);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 && (given as readonly string[]).includes(part) ? (
          <span key={i} data-user-data>
            {String(params![part])}
          </span>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
