import {
  DEMO_ACCOUNTS,
  authCookies,
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  test,
  type DemoAccount,
  type Page,
} from './support/fixtures'

/**
 * The app shell (docs/product.md, Layout): header, account menu, bottom bar,
 * the verification-pending banner, sign-out. Behaviour runs on the desktop
 * project with JavaScript on and off; the phone project checks the layout
 * at 360 px.
 */
const LAYOUTS: Record<Exclude<DemoAccount, 'newcreator'>, { menu: [string, string][]; bar: string[] }> = {
  learner: {
    menu: [
      ['Profile', '/profile'],
      ['Quote', '/create-quote'],
    ],
    bar: ['Profile', 'Feed', 'Sparks', 'Creators'],
  },
  creator: {
    menu: [
      ['Dashboard', '/dashboard'],
      ['Profile', '/profile'],
      ['Upload Content', '/upload'],
    ],
    bar: ['Profile', 'Feed', 'Sparks', 'Creators', 'Upload'],
  },
  admin: {
    menu: [
      ['Admin Dashboard', '/admin'],
      ['Dashboard', '/dashboard'],
      ['Profile', '/profile'],
      ['Quote', '/create-quote'],
    ],
    bar: ['Profile', 'Feed', 'Sparks', 'Creators', 'Upload', 'Admin'],
  },
}

const PENDING_TITLE = 'Your creator account is pending verification'
const STILL_PENDING = 'Your account is still pending verification. We will let you know when an admin has reviewed it.'

const menuButton = (page: Page) => page.getByTestId('account-menu')
const accountMenu = (page: Page) => page.getByRole('navigation', { name: 'Account' })
const bottomBar = (page: Page) => page.getByRole('navigation', { name: 'Main' })

async function linksOf(nav: ReturnType<typeof accountMenu>): Promise<[string, string][]> {
  const links = nav.getByRole('link')
  const count = await links.count()
  const entries: [string, string][] = []
  for (let index = 0; index < count; index++) {
    const link = links.nth(index)
    entries.push([(await link.innerText()).trim(), (await link.getAttribute('href')) ?? ''])
  }
  return entries
}

test.describe('desktop', () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ javaScriptEnabled })

      test('a visitor sees Login and Sign Up, and no account menu or bottom bar', async ({ page }) => {
        await page.goto('/')
        const header = page.getByRole('banner')
        await expect(header.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login')
        await expect(header.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup')
        await expect(menuButton(page)).toHaveCount(0)
        await expect(bottomBar(page)).toHaveCount(0)
      })

      test('each role’s account menu and bottom bar hold exactly the entries of the role, and no pending banner', async ({
        page,
        signedInAs,
      }) => {
        for (const [role, layout] of Object.entries(LAYOUTS) as [
          keyof typeof LAYOUTS,
          (typeof LAYOUTS)[keyof typeof LAYOUTS],
        ][]) {
          await page.context().clearCookies()
          await signedInAs(role)
          await page.goto('/profile')
          const header = page.getByRole('banner')
          await expect(header.getByRole('link', { name: 'Login' }), role).toHaveCount(0)
          await expect(menuButton(page), role).toContainText(DEMO_ACCOUNTS[role].username)

          await expect(accountMenu(page), role).toBeHidden()
          await menuButton(page).click()
          await expect(accountMenu(page), role).toBeVisible()
          expect(await linksOf(accountMenu(page)), role).toEqual(layout.menu)
          await expect(page.getByRole('button', { name: 'Sign Out' }), role).toBeVisible()

          await expect(bottomBar(page), role).toBeVisible()
          expect(
            (await linksOf(bottomBar(page))).map(([label]) => label),
            role,
          ).toEqual(layout.bar)
          await expect(bottomBar(page).getByRole('link', { name: 'Profile' }), role).toHaveAttribute('aria-current', 'page')
          await expect(bottomBar(page).getByRole('link', { name: 'Feed' }), role).not.toHaveAttribute('aria-current', 'page')
          await expect(page.getByRole('region', { name: PENDING_TITLE }), role).toHaveCount(0)
        }
      })

      test('Sign Out ends the session: /login with a message, and guarded pages redirect again', async ({
        page,
        context,
        baseURL,
        signedInAs,
      }) => {
        await signedInAs('learner', { fresh: true })
        await page.goto('/dashboard')
        await menuButton(page).click()
        await page.getByRole('button', { name: 'Sign Out' }).click()
        await expect(page).toHaveURL(/\/login$/)
        await expect(page.getByTestId('flash-toast')).toHaveText('You have been signed out.')
        await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
        expect(await authCookies(context, baseURL!)).toEqual([])
        await page.goto('/profile')
        await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/)
      })

      test('an unverified creator sees the pending banner; Check Status and the profile’s Refresh re-read the account and stay on the page', async ({
        page,
        signedInAs,
      }) => {
        await signedInAs('newcreator')
        await page.goto('/dashboard')
        const banner = page.getByRole('region', { name: PENDING_TITLE })
        await expect(banner).toBeVisible()
        await banner.getByRole('button', { name: 'Check Status' }).click()
        await expect(page.getByTestId('flash-toast')).toHaveText(STILL_PENDING)
        await expect(page).toHaveURL(/\/dashboard$/)
        await expect(banner).toBeVisible()

        await page.goto('/profile')
        await expect(page.getByTestId('verification-status')).toHaveText('Pending review by an admin.')
        // The card says it; the banner does not repeat it there (docs/product.md, Rules and messages).
        await expect(banner).toHaveCount(0)
        await page.getByRole('button', { name: 'Refresh' }).click()
        await expect(page.getByTestId('flash-toast')).toHaveText(STILL_PENDING)
        await expect(page).toHaveURL(/\/profile$/)
      })
    })
  }

  test('the Logout button on the profile signs out too', async ({ page, context, baseURL, signedInAs }) => {
    await signedInAs('creator', { fresh: true })
    await page.goto('/profile')
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByTestId('flash-toast')).toHaveText('You have been signed out.')
    expect(await authCookies(context, baseURL!)).toEqual([])
  })

  test('a toast under the pointer finishes appearing and waits there; it fades once the pointer leaves', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('learner', { fresh: true })
    await page.goto('/profile')
    // Animations at a hundredth of their speed: the pointer is on the toast while it is still appearing.
    const devtools = await page.context().newCDPSession(page)
    await devtools.send('Animation.enable')
    await devtools.send('Animation.setPlaybackRate', { playbackRate: 0.01 })
    await page.getByRole('button', { name: 'Logout' }).click()
    const toast = page.getByRole('status').filter({ has: page.getByTestId('flash-toast') })
    await toast.hover({ force: true })
    const states = () =>
      toast.evaluate((element) =>
        element.getAnimations().map((animation) => [(animation as CSSAnimation).animationName, animation.playState]),
      )
    // Hovering pauses the fade-away only: a toast caught half-way through appearing would stay half drawn.
    await expect.poll(states).toEqual([
      ['toast-in', 'running'],
      ['toast-out', 'paused'],
    ])
    await devtools.send('Animation.setPlaybackRate', { playbackRate: 1 })
    await expect.poll(states).toEqual([['toast-out', 'paused']])
    expect(await toast.evaluate((element) => getComputedStyle(element).opacity)).toBe('1')
    await page.mouse.move(0, 0)
    await expect.poll(states).toEqual([['toast-out', 'running']])
  })

  test('a creator who signs up later is pending too, with the banner on every page but their profile', async ({
    page,
    makeUser,
    signedInAs,
  }) => {
    await signedInAs(await makeUser({ role: 'creator' }))
    for (const path of ['/dashboard', '/feedback', '/feed']) {
      await page.goto(path)
      await expect(page.getByRole('region', { name: PENDING_TITLE }), path).toBeVisible()
    }
    // The Profile tab says it on the card; the banner does not repeat it there (docs/product.md, Rules and messages).
    await page.goto('/profile')
    await expect(page.getByTestId('verification-status')).toHaveText('Pending review by an admin.')
    await expect(page.getByRole('region', { name: PENDING_TITLE })).toHaveCount(0)
  })

  test('the account menu closes on Escape (focus back on its button), on a click outside, and after navigating', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('creator')
    await page.goto('/profile')
    await menuButton(page).focus()
    await page.keyboard.press('Enter')
    await expect(accountMenu(page)).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(accountMenu(page).getByRole('link', { name: 'Dashboard' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(accountMenu(page)).toBeHidden()
    await expect(menuButton(page)).toBeFocused()

    await menuButton(page).click()
    await expect(accountMenu(page)).toBeVisible()
    await page
      .getByRole('heading', { level: 1 })
      .or(page.locator('main'))
      .first()
      .click({ position: { x: 5, y: 5 } })
    await expect(accountMenu(page)).toBeHidden()

    await menuButton(page).click()
    await accountMenu(page).getByRole('link', { name: 'Dashboard' }).click()
    await expect(page.getByRole('heading', { name: 'Creator Dashboard' })).toBeVisible()
    await expect(accountMenu(page)).toBeHidden()
    await expect(bottomBar(page).getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current', 'page')
  })

  test('the dashboard: stat cards and an empty Your Content for a new creator, next steps for a learner', async ({
    page,
    makeUser,
    signedInAs,
  }) => {
    await signedInAs(await makeUser({ role: 'creator' }))
    await page.goto('/dashboard')
    const stats = page.getByRole('region', { name: 'Your numbers' })
    for (const label of ['Total Videos', 'Total Views', 'Total Likes', 'Total Comments']) {
      await expect(stats.getByRole('listitem').filter({ hasText: label })).toContainText('0')
    }
    await expect(page.getByRole('link', { name: 'Upload New Content' })).toHaveAttribute('href', '/upload')
    const content = page.getByRole('region', { name: 'Your Content' })
    await expect(content.getByText('No content yet')).toBeVisible()
    await expect(content.getByRole('link', { name: 'Upload Now' })).toHaveAttribute('href', '/upload')

    await page.context().clearCookies()
    await signedInAs('learner')
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: 'Welcome to Lumen, leo.learns!' })).toBeVisible()
    for (const [name, href] of [
      ['Explore the feed', '/feed'],
      ['Watch sparks', '/sparks'],
      ['Discover creators', '/creators'],
    ] as const) {
      await expect(page.getByRole('link', { name: new RegExp(`^${name}`) })).toHaveAttribute('href', href)
    }
    await expect(page.getByText('Total Videos')).toHaveCount(0)
  })

  test('the profile card: picture, username, role badge, email', async ({ page, signedInAs }) => {
    await signedInAs('admin')
    await page.goto('/profile')
    const card = page.getByRole('region', { name: 'Profile card' })
    await expect(card.getByRole('img', { name: 'Profile picture of ada.admin' })).toHaveText('AA')
    await expect(card.getByText('ada.admin', { exact: true })).toBeVisible()
    await expect(card.getByText('Admin', { exact: true }).first()).toBeVisible()
    await expect(card.getByText('admin@lumen.test')).toBeVisible()
    await expect(card.getByTestId('verification-status')).toHaveCount(0)
  })

  test('the shell pages have no serious or critical accessibility violations', async ({ page, signedInAs }) => {
    await page.goto('/')
    await expectAccessible(page)

    await signedInAs('newcreator')
    await page.goto('/dashboard')
    await expectAccessible(page)
    await menuButton(page).click()
    await expect(accountMenu(page)).toBeVisible()
    await expectAccessible(page)
    await page.goto('/profile')
    await expectAccessible(page)

    await page.context().clearCookies()
    await signedInAs('learner')
    await page.goto('/dashboard')
    await expectAccessible(page)
    await page.goto('/feedback?returnTo=%2Fprofile')
    await expectAccessible(page)
  })

  test('one stylesheet, and the font it preloads is the one the stylesheet uses, fetched once', async ({ page }) => {
    const fonts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'font') fonts.push(new URL(request.url()).pathname)
    })
    await page.goto('/')
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1)
    const preload = page.locator('link[rel="preload"][as="font"]')
    await expect(preload).toHaveCount(1)
    const href = await preload.getAttribute('href')
    expect(href).toMatch(/^\/assets\/inter-latin-wght-normal-[\w-]+\.woff2$/)
    await page.evaluate(() => document.fonts.ready)
    expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true)
    expect(fonts).toEqual([href])
  })

  test('the ring defaults sit only where a ring is drawn: focus rings, chosen options and cards keep theirs', async ({
    page,
    signedInAs,
  }) => {
    // Tailwind's optimizeUniversalDefaults (tailwind.config.ts): no `--tw-*` defaults on every element; a variant's
    // ring (`has-[:checked]:ring-2`) brings its own defaults, which must not undo the element's `ring-inset` or shadow.
    const shadowOf = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).boxShadow)
    const brand500 = 'rgb(99, 102, 241)'
    await signedInAs('creator')
    await page.goto('/upload')
    expect(await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--tw-ring-offset-width'))).toBe('')
    // The chosen destination: a 2 px brand ring inside the option.
    const chosen = 'label:has(input[name="type"]:checked)'
    expect(await shadowOf(chosen)).toContain(`${brand500} 0px 0px 0px 2px inset`)
    // Any control's keyboard focus: a brand ring outside, past a 2 px white offset.
    await page.keyboard.press('Tab')
    await page.locator('header a[href="/"]').first().focus()
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).boxShadow)).toBe(
      `rgb(255, 255, 255) 0px 0px 0px 2px, ${brand500} 0px 0px 0px 4px, rgba(0, 0, 0, 0) 0px 0px 0px 0px`,
    )
    // A card whose link has the focus keeps its shadow under the focus ring.
    await page.goto('/feed')
    const card = '[data-video-card]'
    const resting = await shadowOf(card)
    expect(resting).toMatch(/\d+px \d+px \d+px/)
    await page.keyboard.press('Tab')
    await page.locator(`${card} .card-link`).first().focus()
    // The card's shadow transitions (transition-shadow): read it once the ring has arrived.
    await expect.poll(() => shadowOf(card)).toContain(`${brand500} 0px 0px 0px 4px`)
    const focused = await shadowOf(card)
    expect(focused.endsWith(resting.split(/, (?=rgb)/).at(-1)!)).toBe(true)
  })
})

test.describe('phone at 360 px', { tag: '@phone-only' }, () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('the bottom bar sits at the bottom, fits, and navigates; nothing scrolls sideways', async ({ page, signedInAs }) => {
    await signedInAs('admin')
    await page.goto('/dashboard')
    await expectNoHorizontalScroll(page)
    const bar = bottomBar(page)
    await expect(bar).toBeVisible()
    const box = (await bar.boundingBox())!
    expect(Math.round(box.y + box.height)).toBe(740)
    expect(box.width).toBeLessThanOrEqual(360)
    for (const label of LAYOUTS.admin.bar) {
      const link = bar.getByRole('link', { name: label })
      await expect(link).toBeInViewport({ ratio: 1 })
      expect((await link.boundingBox())!.height, `${label} is a comfortable tap target`).toBeGreaterThanOrEqual(44)
    }
    await bar.getByRole('link', { name: 'Profile' }).tap()
    await expect(page).toHaveURL(/\/profile$/)
    await expect(bar.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page')
    await expectNoHorizontalScroll(page)
  })

  test('the account menu opens inside the screen', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    await page.goto('/profile')
    await menuButton(page).tap()
    const menu = accountMenu(page)
    await expect(menu).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sign Out' })).toBeInViewport({ ratio: 1 })
    const box = (await menu.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(360)
    await expectNoHorizontalScroll(page)
  })

  test('a visitor’s header and a pending creator’s banner fit without sideways scrolling', async ({ page, signedInAs }) => {
    await page.goto('/')
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toBeInViewport({ ratio: 1 })
    await expectNoHorizontalScroll(page)
    await signedInAs('newcreator')
    // The banner is on every page but the profile, which shows the status itself (docs/product.md, Rules and messages).
    await page.goto('/feed')
    await expect(page.getByRole('button', { name: 'Check Status' })).toBeInViewport({ ratio: 1 })
    await expectNoHorizontalScroll(page)
  })
})
