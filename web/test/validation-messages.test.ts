// The console shows the contract's validation messages with their limits filled in, for its own
// form checks and for the fields the server refuses, in the user's language.
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMAS } from '@wt/contract';
import i18n from '../src/i18n/index';
import { errorText, fieldErrorText } from '../src/i18n/errors';
import { issueText, schemaValidator } from '../src/forms/validate';
import { validateLogin } from '../src/forms/passwords';
import { ApiError } from '../src/api/client';

const t = i18n.t.bind(i18n);

describe('validation messages in the console', () => {
  afterAll(() => i18n.changeLanguage('zh-CN'));

  it('render the limit a form value crossed', async () => {
    await i18n.changeLanguage('zh-CN');
    const validate = schemaValidator(SCHEMAS['/DeviceRole/Save'].request);
    const [name] = validate({ Name: 'x'.repeat(65), Color: 'blue' });
    expect(name).toEqual({ field: 'Name', key: 'validation.tooLong', params: { max: 64 } });
    expect(issueText(t, name!)).toBe('长度不能超过 64 个字符');
    await i18n.changeLanguage('en');
    expect(issueText(t, name!)).toBe('At most 64 characters');
    const [login] = validateLogin({ LoginName: 'x'.repeat(65), Password: 'abc123' });
    expect(issueText(t, login!)).toBe('At most 64 characters');
  });

  it('render the range of a date and of a number', async () => {
    await i18n.changeLanguage('zh-TW');
    const issues = schemaValidator(SCHEMAS['/Device/allHealthDataPage'].request)({ StartTime: '0000-01-01', PageCount: 5000 });
    expect(issues.map((i) => issueText(t, i))).toEqual(['不能大於 1000', '日期須在 1970-01-01 到 2100-12-31 之間']);
  });

  it('list the fields a server refusal names, with their limits', async () => {
    await i18n.changeLanguage('en');
    const err = new ApiError(400, 'common.validation', undefined, [
      { Field: 'UserId', Message: 'validation.max', Params: { max: 2147483647 } },
      { Field: 'body', Message: 'validation.object' },
    ]);
    expect(errorText(t, err)).toBe('Some fields are not valid, please check them: UserId Must be at most 2147483647; body Must be a JSON object');
    expect(fieldErrorText(t, { Field: 'Name', Message: 'validation.tooLong', Params: { max: 64 } })).toBe('Name At most 64 characters');
  });

  it('render the refusals of what no column holds and of an update without a change, in the three languages', async () => {
    const fields = [
      { Field: 'Content', Message: 'validation.badCharacter' },
      { Field: 'Height', Message: 'validation.nearZero', Params: { min: 1.2e-38 } },
      { Field: 'ExpiresAt', Message: 'validation.nothingToChange', Params: { fields: 'ExpiresAt, SoldAt, Remark' } },
    ];
    const texts: Record<string, string[]> = {
      en: [
        'Content Must not contain a broken character (an unpaired UTF-16 surrogate)',
        'Height Must be 0 or at least 1.2e-38 in absolute value',
        'ExpiresAt Nothing to change: give at least one of ExpiresAt, SoldAt, Remark',
      ],
      'zh-CN': ['Content 不能包含无效字符（未配对的 UTF-16 代理项）', 'Height 须为 0 或绝对值不小于 1.2e-38', 'ExpiresAt 没有要修改的内容：请至少提供 ExpiresAt, SoldAt, Remark 中的一项'],
      'zh-TW': ['Content 不能包含無效字元（未配對的 UTF-16 代理項）', 'Height 須為 0 或絕對值不小於 1.2e-38', 'ExpiresAt 沒有要修改的內容：請至少提供 ExpiresAt, SoldAt, Remark 中的一項'],
    };
    for (const [language, expected] of Object.entries(texts)) {
      await i18n.changeLanguage(language);
      expect(fields.map((f) => fieldErrorText(t, f))).toEqual(expected);
    }
    // The form of a sale shows the refusal under its field before anything is sent.
    await i18n.changeLanguage('en');
    const [nothing] = schemaValidator(SCHEMAS['/Inventory/SalesUpdate'].request)({ Id: 1 });
    expect(nothing).toEqual({ field: 'ExpiresAt', key: 'validation.nothingToChange', params: { fields: 'ExpiresAt, SoldAt, Remark' } });
    expect(issueText(t, nothing!)).toBe('Nothing to change: give at least one of ExpiresAt, SoldAt, Remark');
  });
});
