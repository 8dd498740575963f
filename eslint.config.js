import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'server/src/db/migrations/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Times the server answers or exports are in the viewer's zone, never the process's (docs/decisions.md).
    files: ['server/src/**/*.{ts,mts,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@wt/contract',
              importNames: ['formatDateTime', 'toDate', 'relativeTime'],
              message: "They read the process's zone: use lib/time.ts (shownTime, sentInstant, viewerDay) or formatInZone with the viewer's offset.",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(getHours|getDate|getMonth|getFullYear|getDay|getMinutes|getSeconds|setHours|setDate|setMonth|setFullYear|setMinutes|getTimezoneOffset|toLocaleString|toLocaleDateString|toLocaleTimeString|toDateString|toTimeString)$/]',
          message: "The process's zone is no one's: use the UTC methods with the viewer's offset (lib/time.ts).",
        },
      ],
    },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
);
