import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import { remixConfig } from './remix.config'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
  plugins: [remix(remixConfig)],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  server: { port: Number(process.env.PORT ?? 3000) },
})
