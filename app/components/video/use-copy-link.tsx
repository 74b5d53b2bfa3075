import { useEffect, useState } from 'react'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'

/** What Share says after a copy: that it worked (for a while), or why not, with the link to copy by hand. */
export interface CopyNotice {
  tone: 'success' | 'error'
  text: string
  url?: string
}

/** How long "Link copied" stays. */
const COPIED_NOTICE_MS = 3000

/**
 * Share's copy, with JavaScript (the video page's and the reel viewer's): `copy` puts the link on the
 * clipboard and says so for a while; when the clipboard refuses (permissions, an insecure origin) the
 * notice keeps the link, for `ManualCopyLink`; a link that cannot be made shows its message.
 */
export function useCopyLink(what: 'video' | 'spark') {
  const [notice, setNotice] = useState<CopyNotice | null>(null)
  useEffect(() => {
    if (notice?.tone !== 'success') return
    const timer = setTimeout(() => setNotice(null), COPIED_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [notice])

  async function copy(link: { ok: true; url: string } | { ok: false; message: string }) {
    if (!link.ok) {
      setNotice({ tone: 'error', text: link.message })
      return
    }
    try {
      await navigator.clipboard.writeText(link.url)
      setNotice({ tone: 'success', text: VIDEO_MESSAGES.linkCopied })
    } catch {
      setNotice({ tone: 'error', text: `Copy this link to share the ${what}:`, url: link.url })
    }
  }
  return { notice, copy }
}

/** The link the clipboard refused, in a field that selects it all when focused. */
export function ManualCopyLink({ url, label }: { url: string; label: string }) {
  return (
    <input
      readOnly
      aria-label={label}
      value={url}
      onFocus={(event) => event.currentTarget.select()}
      className="mt-1.5 block w-full rounded-lg border-0 bg-ink-50 px-2 py-1 text-sm ring-1 ring-inset ring-ink-300"
    />
  )
}
