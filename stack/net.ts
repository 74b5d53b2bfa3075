import { isIP } from 'node:net'

/** `::ffff:1.2.3.4` → `1.2.3.4`: one spelling per IPv4 peer. */
export function normaliseIp(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address
}

/** A loopback peer: 127.0.0.0/8, ::1, or either mapped into IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const plain = normaliseIp(address)
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'))
}

/**
 * TRUSTED_PROXY: whether a direct peer may tell us the client's address in
 * X-Forwarded-For — `loopback` (the app's server on this machine, or a
 * reverse proxy on the same host), `none`, or a comma-separated list of IPs.
 */
export function isTrustedProxy(setting: string, address: string | undefined): boolean {
  if (!address) return false
  const plain = normaliseIp(address)
  return setting
    .split(',')
    .map((entry) => entry.trim())
    .some((entry) => (entry === 'loopback' ? isLoopback(plain) : entry !== 'none' && entry !== '' && normaliseIp(entry) === plain))
}

/**
 * The client's address: the socket's, unless that peer is a trusted proxy;
 * then X-Forwarded-For read from the right, skipping trusted hops, so a
 * client cannot prepend an address of its choosing.
 */
export function forwardedClientIp(setting: string, socketAddress: string | undefined, forwardedFor: string | undefined): string {
  let client = normaliseIp(socketAddress ?? '')
  if (!forwardedFor || !isTrustedProxy(setting, client)) return client
  const hops = forwardedFor.split(',').map((hop) => normaliseIp(hop.trim()))
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    if (!isIP(hop)) break
    client = hop
    if (!isTrustedProxy(setting, hop)) break
  }
  return client
}
