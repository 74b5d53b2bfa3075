/** Any path no other route claims: a real 404 with the app's not-found card. */
export function loader() {
  throw new Response('Not Found', { status: 404 })
}

export default function NotFound() {
  return null
}
