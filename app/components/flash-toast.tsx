import { useState } from 'react'
import { CloseIcon, OutlineIcon } from '~/components/icons'
import { useHydrated } from './use-hydrated'

/**
 * The one-time message a redirect carried (a flash cookie): "You have been
 * signed out.", "Thank you for your feedback!". It fades away on its own
 * after a few seconds — by CSS, so also without JavaScript — and stays while
 * the pointer or focus is on it. With JavaScript it can also be dismissed.
 */
export interface ToastMessage {
  id: string
  kind: 'success' | 'error' | 'info'
  message: string
}

const tones = {
  success: { box: 'bg-emerald-50 text-emerald-900 ring-emerald-200', icon: 'text-emerald-600', path: 'm8 12.5 2.5 2.5L16 9.5' },
  error: { box: 'bg-red-50 text-red-900 ring-red-200', icon: 'text-red-600', path: 'M12 8v4.5m0 3h.01' },
  info: { box: 'bg-white text-ink-900 ring-ink-200', icon: 'text-brand-600', path: 'M12 11v5m0-8h.01' },
} as const

/**
 * The toast to show: the one this page's data brought, kept while the same page's data is
 * reloaded (a dashboard still processing an upload refreshes itself every few seconds, and the
 * flash was taken by the first answer), until the next navigation.
 */
export function useShownToast(toast: ToastMessage | null, locationKey: string): ToastMessage | null {
  const [kept, setKept] = useState<{ toast: ToastMessage; locationKey: string } | null>(null)
  if (toast && kept?.toast.id !== toast.id) setKept({ toast, locationKey })
  if (toast) return toast
  return kept && kept.locationKey === locationKey ? kept.toast : null
}

export function FlashToast({ toast }: { toast: ToastMessage }) {
  const hydrated = useHydrated()
  const [dismissed, setDismissed] = useState(false)
  if (dismissed) return null
  const tone = tones[toast.kind]
  return (
    // In the flow right after the header and the verification banner, stuck under the header when the page scrolls:
    // it never covers the banner (one message at a time), and takes no room (height 0, the card hangs below).
    <div className="pointer-events-none sticky top-[calc(4rem+env(safe-area-inset-top))] z-50 h-0">
      <div className="absolute inset-x-0 top-2 flex justify-center px-4">
        <div
          role={toast.kind === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex w-full max-w-md animate-toast items-start gap-3 rounded-card px-4 py-3 text-sm font-medium shadow-card ring-1 ring-inset hover:[animation-play-state:running,paused] focus-within:[animation-play-state:running,paused] ${tone.box}`}
        >
          <OutlineIcon className={`mt-px h-5 w-5 shrink-0 ${tone.icon}`} strokeWidth="2">
            <circle cx="12" cy="12" r="9" />
            <path d={tone.path} />
          </OutlineIcon>
          <p className="flex-1" data-testid="flash-toast">
            {toast.message}
          </p>
          {hydrated ? (
            <button
              type="button"
              onClick={() => setDismissed(true)}
              className="-m-1.5 inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full opacity-70 hover:opacity-100"
            >
              <span className="sr-only">Dismiss</span>
              <CloseIcon className="h-4 w-4" />
            </button>
          ) : null}
        </div>
      </div>
    </div>
  )
}
