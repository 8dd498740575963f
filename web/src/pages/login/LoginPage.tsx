// Login, register, forgot-password and reset-password forms (SPEC §2, §5), with the language switch;
// the waits of failed logins counted down under the form, and the browser unlock opened from the
// mailed link (/login?unlock=<token>).
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Dropdown, Form, Input, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import TranslationOutlined from '@ant-design/icons/es/icons/TranslationOutlined';
import { LOCALES, State, type Locale } from '@wt/contract';
import { ApiError, call } from '../../api/client';
import { login } from '../../session/auth';
import { currentLocale, setLocale } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { fieldRule, type Validate } from '../../forms/validate';
import {
  validateFindPassword,
  validateLogin,
  validateRegister,
  validateResetPassword,
  type FindPasswordValues,
  type LoginValues,
  type RegisterValues,
  type ResetPasswordValues,
} from '../../forms/passwords';
import { useNotice } from '../../stores/notice';
import { safeRedirect } from './redirect';
import { browserFingerprint } from '../../realtime/connection';
import logoUrl from '../../app/logo.svg';
import { useLoginBrand } from '../../app/brand';
import './login.css';

type Mode = 'login' | 'register' | 'forgot' | 'reset';

export function LanguageSwitch({ dark = false }: { dark?: boolean }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [locale],
        items: LOCALES.map((l) => ({ key: l, label: t(`common:languages.${l}`) })),
        onClick: ({ key }) => setLocale(key as Locale),
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} style={dark ? { color: '#fff' } : undefined} aria-label={t('common:language')}>
        {t(`common:languages.${locale}`)}
      </Button>
    </Dropdown>
  );
}

function useRule<V>(validate: Validate<V>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  return { form, rule: (field: keyof V & string) => fieldRule(validate, form, field, t) };
}

/** A refused login's wait: the refusal (this source locked, new places delayed, too many requests) and when it ends. */
interface LoginWait {
  refusal: ApiError;
  until: number;
}

/** The wait of a 429 answer carrying its seconds, else null. */
function loginWaitOf(err: unknown): LoginWait | null {
  if (!(err instanceof ApiError) || err.state !== State.TOO_MANY_REQUESTS) return null;
  const seconds = err.params?.seconds;
  return typeof seconds === 'number' ? { refusal: err, until: Date.now() + seconds * 1000 } : null;
}

const secondsLeft = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/** The wait's message with the seconds left, counted down; gone when the wait is over. */
function LoginWaitNotice({ wait, onOver }: { wait: LoginWait; onOver: () => void }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(() => secondsLeft(wait.until));
  const { state, messageKey, params, fields, text } = wait.refusal;
  useEffect(() => {
    const timer = setInterval(() => {
      const s = secondsLeft(wait.until);
      setSeconds(s);
      if (s === 0) onOver();
    }, 1000);
    return () => clearInterval(timer);
  }, [wait, onOver]);
  // The seconds counted down replace the answer's.
  const shown = errorText(t, new ApiError(state, messageKey, { ...params, seconds }, fields, text));
  return <Alert type="warning" showIcon data-testid="login-wait" style={{ marginBottom: 16 }} title={shown} />;
}

function LoginForm({ onMode, initialName }: { onMode: (m: Mode) => void; initialName?: string }) {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState<LoginWait | null>(null);
  const { form, rule } = useRule<LoginValues>(validateLogin);

  const submit = async (values: LoginValues) => {
    setBusy(true);
    setWait(null);
    try {
      await login(values.LoginName!.trim(), values.Password!, currentLocale());
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      // A wait stays in view, counting down; other failures are a message.
      const refused = loginWaitOf(err);
      if (refused) setWait(refused);
      else void message.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  const waitOver = useCallback(() => setWait(null), []);

  return (
    <Form form={form} onFinish={submit} size="large" initialValues={{ LoginName: initialName }} autoComplete="on">
      <Form.Item name="LoginName" rules={[rule('LoginName')]}>
        <Input prefix={<UserOutlined />} placeholder={t('placeholders.account')} aria-label={t('fields.account')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="Password" rules={[rule('Password')]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('placeholders.password')} aria-label={t('fields.password')} autoComplete="current-password" />
      </Form.Item>
      {wait && <LoginWaitNotice wait={wait} onOver={waitOver} />}
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('actions.login')}
      </Button>
      <div className="wt-login-links">
        <Typography.Link onClick={() => onMode('register')}>{t('actions.toRegister')}</Typography.Link>
        <Typography.Link onClick={() => onMode('forgot')}>{t('actions.toForgot')}</Typography.Link>
      </div>
    </Form>
  );
}

function RegisterForm({ onDone, onMode }: { onDone: (name: string) => void; onMode: (m: Mode) => void }) {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const { form, rule } = useRule<RegisterValues>(validateRegister);

  const submit = async (v: RegisterValues) => {
    setBusy(true);
    try {
      await call('/User/Register', {
        LoginName: v.LoginName!.trim(),
        Password: v.Password!,
        ConfirmPassword: v.ConfirmPassword!,
        Email: v.Email!.trim(),
        Language: currentLocale(),
      });
      void message.success(t('messages:auth.registerOk'));
      onDone(v.LoginName!.trim());
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} size="large" layout="vertical" requiredMark={false}>
      <Form.Item name="LoginName" label={t('fields.account')} rules={[rule('LoginName')]}>
        <Input prefix={<UserOutlined />} placeholder={t('placeholders.account')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="Password" label={t('fields.password')} rules={[rule('Password')]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('placeholders.password')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="ConfirmPassword" label={t('fields.confirmPassword')} rules={[rule('ConfirmPassword')]} dependencies={['Password']}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('placeholders.confirmPassword')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="Email" label={t('fields.email')} rules={[rule('Email')]}>
        <Input prefix={<MailOutlined />} placeholder={t('placeholders.email')} autoComplete="email" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('actions.register')}
      </Button>
      <div className="wt-login-links">
        <Typography.Link onClick={() => onMode('login')}>{t('actions.toLogin')}</Typography.Link>
      </div>
    </Form>
  );
}

function ForgotForm({ onMode }: { onMode: (m: Mode) => void }) {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const { form, rule } = useRule<FindPasswordValues>(validateFindPassword);

  const submit = async (v: FindPasswordValues) => {
    setBusy(true);
    try {
      await call('/User/FindPassword', { LoginName: v.LoginName!.trim(), Email: v.Email!.trim(), Language: currentLocale() });
      void message.success(t('messages:auth.resetMailSent'));
      onMode('login');
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} size="large" layout="vertical" requiredMark={false}>
      <Form.Item name="LoginName" label={t('fields.account')} rules={[rule('LoginName')]}>
        <Input prefix={<UserOutlined />} placeholder={t('placeholders.account')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="Email" label={t('fields.email')} rules={[rule('Email')]}>
        <Input prefix={<MailOutlined />} placeholder={t('placeholders.email')} autoComplete="email" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('actions.sendResetMail')}
      </Button>
      <div className="wt-login-links">
        <Typography.Link onClick={() => onMode('login')}>{t('actions.toLogin')}</Typography.Link>
      </div>
    </Form>
  );
}

function ResetForm({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const { form, rule } = useRule<ResetPasswordValues>(validateResetPassword);

  const submit = async () => {
    const v = form.getFieldsValue(true) as ResetPasswordValues;
    setBusy(true);
    try {
      await call('/User/ResetPassword', { Token: token, NewPassword: v.NewPassword!, ConfirmPassword: v.ConfirmPassword! });
      void message.success(t('messages:auth.resetOk'));
      onDone();
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} size="large" layout="vertical" requiredMark={false} initialValues={{ Token: token }}>
      <Form.Item name="Token" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="NewPassword" label={t('fields.newPassword')} rules={[rule('NewPassword')]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('placeholders.newPassword')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="ConfirmPassword" label={t('fields.confirmPassword')} rules={[rule('ConfirmPassword')]} dependencies={['NewPassword']}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('placeholders.confirmPassword')} autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('actions.resetPassword')}
      </Button>
      <div className="wt-login-links">
        <Typography.Link onClick={onDone}>{t('actions.toLogin')}</Typography.Link>
      </div>
    </Form>
  );
}

/**
 * Opened from the mailed unlock link: sends its token once, so this browser gets the account's mark
 * (its logins are no longer delayed), and says how that went; the token leaves the address.
 */
function useUnlockLink(onUnlocked: (loginName: string) => void) {
  const { t } = useTranslation('login');
  const [params, setParams] = useSearchParams();
  const token = params.get('unlock');
  const sent = useRef<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    call('/User/UnlockBrowser', { Token: token })
      .then((r) => {
        setOutcome({ ok: true, text: t('messages:auth.browserUnlocked', { name: r.LoginName }) });
        onUnlocked(r.LoginName);
      })
      .catch((err: unknown) => setOutcome({ ok: false, text: errorText(t, err) }))
      .finally(() => {
        const next = new URLSearchParams(params);
        next.delete('unlock');
        setParams(next, { replace: true });
      });
  }, [token, params, setParams, t, onUnlocked]);
  return outcome;
}

export default function LoginPage() {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const resetToken = params.get('reset');
  const [mode, setMode] = useState<Mode>(resetToken ? 'reset' : 'login');
  const [lastName, setLastName] = useState<string>();
  const unlocked = useUnlockLink(setLastName);
  // Opened from a reseller's link (?platform=<key>) or on its host name: its title and icon.
  const brand = useLoginBrand(params.get('platform')).data ?? null;

  useEffect(() => {
    const notice = useNotice.getState().take();
    if (notice) void message.warning(t(notice));
  }, [message, t]);

  const site = brand?.PageTitle || brand?.Title || t('common:appName');
  useEffect(() => {
    document.title = `${t('route:login')} - ${site}`;
  }, [t, site]);

  // The realtime connection registers with the browser fingerprint: computed while the user types,
  // not while the first page after login draws.
  useEffect(() => {
    void browserFingerprint();
  }, []);

  const backToLogin = () => {
    if (resetToken) {
      const next = new URLSearchParams(params);
      next.delete('reset');
      setParams(next, { replace: true });
    }
    setMode('login');
  };

  return (
    <div className="wt-login">
      <div className="wt-login-lang">
        <LanguageSwitch dark />
      </div>
      <div className="wt-login-card">
        <div className="wt-login-head">
          <img src={brand?.IconUrl || logoUrl} alt="" width={44} height={44} data-testid="login-logo" />
          <div>
            <h1 data-testid="login-title">{brand?.Title || t('title')}</h1>
            <p>{brand ? brand.CompanyName || t('subtitle') : t('subtitle')}</p>
          </div>
        </div>
        <h2 className="wt-login-mode">{t(`tabs.${mode}`)}</h2>
        {unlocked && mode === 'login' && (
          <Alert type={unlocked.ok ? 'success' : 'error'} showIcon data-testid="login-unlock" style={{ marginBottom: 16 }} title={unlocked.text} />
        )}
        {mode === 'login' && <LoginForm key={lastName ?? ''} initialName={lastName} onMode={setMode} />}
        {mode === 'register' && (
          <RegisterForm
            onMode={setMode}
            onDone={(name) => {
              setLastName(name);
              setMode('login');
            }}
          />
        )}
        {mode === 'forgot' && <ForgotForm onMode={setMode} />}
        {mode === 'reset' && resetToken && <ResetForm token={resetToken} onDone={backToLogin} />}
      </div>
      <div className="wt-login-footer">{brand ? `© ${brand.CompanyName || brand.Title}` : t('footer')}</div>
    </div>
  );
}
