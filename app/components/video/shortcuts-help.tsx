import { useEffect, useRef } from 'react'
import { Sheet } from '~/components/ui/sheet'
import { SHORTCUT_HELP } from './use-player-shortcuts'

export const SHORTCUTS_TITLE = 'Keyboard shortcuts'

/**
 * The player's keyboard shortcuts in a dialog (`?` or the player's Keyboard shortcuts
 * button): a modal `<dialog>` (the Sheet), so focus moves into it, stays there and
 * Escape closes it; on closing, focus goes back to where it was.
 */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const opener = useRef<Element | null>(null)
  useEffect(() => {
    if (open) {
      opener.current = document.activeElement
      return
    }
    const back = opener.current
    opener.current = null
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus()
  }, [open])
  return (
    <Sheet open={open} onClose={onClose} title={SHORTCUTS_TITLE} subtitle="They work while you are not typing in a field.">
      <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2 text-sm" data-shortcuts-help>
        {SHORTCUT_HELP.map((shortcut) => (
          <div key={shortcut.does} className="contents">
            <dt className="flex flex-wrap gap-1">
              {shortcut.spoken ? <span className="sr-only">{shortcut.spoken}</span> : null}
              {shortcut.keys.map((key) => (
                <kbd
                  key={key}
                  aria-hidden={shortcut.spoken ? true : undefined}
                  className="inline-flex min-w-8 justify-center rounded-md bg-ink-100 px-2 py-0.5 font-mono text-xs font-semibold text-ink-900 ring-1 ring-inset ring-ink-200"
                >
                  {key}
                </kbd>
              ))}
            </dt>
            <dd className="text-ink-700">{shortcut.does}</dd>
          </div>
        ))}
      </dl>
    </Sheet>
  )
}
