// ESLint 9 flat config: recommended sets for JS, TypeScript, React hooks and
// accessibility, plus the import boundaries of ADR 0011:
// worker/, stack/, db/ and media/ never import app/; db/ and media/ never
// import stack/ or worker/ (nor does ops/, the logs every layer writes); components and lib never import server modules;
// lib never imports components.
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const APP = { group: ['~/*', '**/app', '**/app/**'], message: 'Only app/ imports app/: share code through db/ or media/.' }
const STACK_OR_WORKER = {
  group: ['**/stack', '**/stack/**', '**/worker', '**/worker/**'],
  message: 'db/ and media/ are shared below the stand-in and the worker: they import neither.',
}
// `import type` included: a type from a server module drags its module graph into the browser's reach.
const SERVER = {
  regex: '(^~/server(/|$)|(^|/)server/|\\.server(\\.tsx?)?$)',
  message: 'Components and lib never import server modules: take types from app/lib (e.g. ~/lib/video-types).',
}
const COMPONENTS = {
  group: ['~/components', '~/components/**', '**/components/**'],
  message: 'app/lib is below components: it imports none.',
}

const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'build-*/**',
      '.data/**',
      '**/node_modules/**',
      'public/build/**',
      'supabase/functions/**',
      'playwright-report/**',
      'test-results/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // TypeScript checks names; the core rule does not know Node's or the DOM's globals without a list.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // An interface that only extends another names a concept (e.g. the request context).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['app/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Our field components put autoFocus on the input they render; only DOM elements are checked.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      // Option cards nest their text one level deeper than the default looks.
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  {
    // Playwright reads a test's fixtures from its first parameter's destructuring: `({}, testInfo)` asks for none.
    files: ['tests/e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  { files: ['worker/**', 'stack/**'], rules: restrict(APP) },
  { files: ['db/**', 'media/**', 'ops/**'], rules: restrict(APP, STACK_OR_WORKER) },
  { files: ['app/components/**'], rules: restrict(SERVER) },
  { files: ['app/lib/**'], rules: restrict(SERVER, COMPONENTS) },
)
