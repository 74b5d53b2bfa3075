import { ENDPOINTS, openApiDocument, type Endpoint } from './openapi.server'

/**
 * /api/docs: a readable reference made from the same table and schemas as
 * /api/openapi.json — plain server-rendered HTML, no scripts, so it works
 * anywhere and under a strict Content-Security-Policy.
 */
const escape = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!)

const ACCESS: Record<Endpoint['access'], string> = {
  none: 'No token',
  optional: 'Token optional',
  bearer: 'Bearer token',
  admin: 'Bearer token (admin)',
}

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  $ref?: string
  enum?: unknown[]
  required?: string[]
  anyOf?: Schema[]
}

function describe(schema: Schema | undefined, depth = 0): string {
  if (!schema) return ''
  if (schema.$ref) return escape(schema.$ref.split('/').pop()!)
  if (schema.anyOf) return schema.anyOf.map((option) => describe(option, depth)).join(' | ')
  if (schema.enum) return schema.enum.map((value) => escape(JSON.stringify(value))).join(' | ')
  if (schema.items) return `${describe(schema.items, depth)}[]`
  if (schema.properties && depth < 2) {
    const fields = Object.entries(schema.properties).map(
      ([name, value]) => `${escape(name)}${schema.required?.includes(name) ? '' : '?'}: ${describe(value, depth + 1)}`,
    )
    return `{ ${fields.join(', ')} }`
  }
  return escape(Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object'))
}

export function renderApiDocs(): string {
  const document = openApiDocument() as {
    info: { title: string; description: string }
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: Schema }> }
          responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>
        }
      >
    >
    components?: { schemas?: Record<string, Schema> }
  }
  const tags = [...new Set(ENDPOINTS.map((endpoint) => endpoint.tag))]
  const sections = tags.map((tag) => {
    const rows = ENDPOINTS.filter((endpoint) => endpoint.tag === tag).map((endpoint) => {
      const operation = document.paths[endpoint.path]?.[endpoint.method]
      const body = operation?.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined
      const ok = operation?.responses[String(endpoint.ok.status)]
      const okSchema = ok?.content ? Object.values(ok.content)[0]?.schema : undefined
      const refusals = Object.keys(operation?.responses ?? {}).filter((status) => status !== String(endpoint.ok.status))
      return `<tr>
        <td><code class="m m-${endpoint.method}">${endpoint.method.toUpperCase()}</code></td>
        <td><code>/api${escape(endpoint.path)}</code><div>${escape(endpoint.summary)}</div></td>
        <td>${ACCESS[endpoint.access]}</td>
        <td>${body ? `<small>${escape(body[0])}</small><br>${describe(body[1].schema)}` : '—'}</td>
        <td>${endpoint.ok.status} ${okSchema ? describe(okSchema) : escape(endpoint.ok.binary ?? '')}<br><small>${refusals.join(' · ')}</small></td>
      </tr>`
    })
    return `<h2 id="${escape(tag.toLowerCase())}">${escape(tag)}</h2>
      <table><thead><tr><th>Method</th><th>Path</th><th>Access</th><th>Body</th><th>Answer · refusals</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  })
  const schemas = Object.entries(document.components?.schemas ?? {}).map(
    ([name, schema]) => `<dt id="schema-${escape(name)}"><code>${escape(name)}</code></dt><dd>${describe(schema)}</dd>`,
  )
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} — reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1f2937}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #e5e7eb}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid #f3f4f6}
code{font:13px ui-monospace,monospace}.m{font-weight:700;padding:.1rem .3rem;border-radius:.25rem;background:#eef2ff;color:#3730a3}
.m-post{background:#ecfdf5;color:#065f46}.m-put{background:#fffbeb;color:#92400e}.m-delete{background:#fef2f2;color:#991b1b}
small{color:#6b7280}dd{margin:0 0 .75rem 1rem;font:13px ui-monospace,monospace;color:#374151}a{color:#4338ca}
</style></head><body>
<h1>${escape(document.info.title)}</h1>
<p>${escape(document.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Sections: ${tags
    .map((tag) => `<a href="#${escape(tag.toLowerCase())}">${escape(tag)}</a>`)
    .join(' · ')} · <a href="#schemas">Schemas</a></p>
${sections.join('\n')}
<h2 id="schemas">Schemas</h2><dl>${schemas.join('')}</dl>
</body></html>`
}
