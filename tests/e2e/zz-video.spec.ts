import { expect, test } from './support/fixtures'

test('zzreels', async ({ page, signedInAs }) => {
  await signedInAs('learner')
  await page.goto('/sparks-reels')
  const v = page.locator('section[aria-current="true"] video')
  await expect(v).toHaveAttribute('data-engine', /.+/)
  await expect.poll(() => v.evaluate((e: HTMLVideoElement) => e.currentTime > 0.3)).toBe(true)
  console.log(await v.evaluate((e: HTMLVideoElement) => `${e.videoWidth}x${e.videoHeight} ${e.currentSrc}`))
  await page.waitForTimeout(20000)
})
test('zzfeed', async ({ page, signedInAs }) => {
  await signedInAs('learner')
  await page.goto('/feed')
  await page.waitForTimeout(20000)
})
