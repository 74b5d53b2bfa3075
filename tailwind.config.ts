import type { Config } from 'tailwindcss'
import defaultTheme from 'tailwindcss/defaultTheme'

/**
 * Lumen's visual system. Components use these tokens only: `brand` for
 * actions and focus, `spark` for the short-clip accent, `ink` for text and
 * surfaces. The type scale and radii below are the whole set.
 */
export default {
  content: ['./app/**/*.{ts,tsx}'],
  // The `--tw-*` defaults only on the elements whose utilities read them, not on every element and pseudo-element
  // (`*, ::before, ::after`): the browser's style recalculation of a page's first frame was half of its cost.
  experimental: { optimizeUniversalDefaults: true },
  theme: {
    extend: {
      colors: {
        brand: {
          50: '#eef2ff',
          100: '#e0e7ff',
          200: '#c7d2fe',
          300: '#a5b4fc',
          400: '#818cf8',
          500: '#6366f1',
          600: '#4f46e5',
          700: '#4338ca',
          800: '#3730a3',
          900: '#312e81',
          950: '#1e1b4b',
        },
        spark: {
          300: '#fcd34d',
          400: '#fbbf24',
          500: '#f59e0b',
          600: '#d97706',
        },
        ink: {
          50: '#f8fafc',
          100: '#f1f5f9',
          200: '#e2e8f0',
          300: '#cbd5e1',
          400: '#94a3b8',
          500: '#64748b',
          600: '#475569',
          700: '#334155',
          800: '#1e293b',
          900: '#0f172a',
          950: '#020617',
        },
      },
      fontFamily: {
        sans: ['"Inter Variable"', ...defaultTheme.fontFamily.sans],
      },
      borderRadius: {
        card: '1rem',
      },
      boxShadow: {
        card: '0 1px 2px rgb(15 23 42 / 0.06), 0 4px 16px rgb(15 23 42 / 0.06)',
      },
      // Toasts: slide in, and fade away after a while even without JavaScript.
      keyframes: {
        'toast-in': { from: { opacity: '0', transform: 'translateY(-0.5rem)' }, to: { opacity: '1', transform: 'none' } },
        'toast-out': { to: { opacity: '0', visibility: 'hidden' } },
      },
      animation: {
        toast: 'toast-in 200ms ease-out, toast-out 300ms ease-in 7s forwards',
      },
    },
  },
  plugins: [],
} satisfies Config
