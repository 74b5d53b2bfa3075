/**
 * How the e2e suite launches Debian's Chromium (playwright.config.ts, and specs that launch a
 * browser of their own).
 *
 * Chromium reads only the last `--disable-features` it is given, and Playwright passes its own
 * list first: ours must repeat Playwright's (tests/unit/chromium-args.test.ts fails when a
 * Playwright upgrade changes it) and add what the tests never use:
 * - the address bar's suggestion popups, web pages of their own since Chromium 150: every new
 *   browser context opened a renderer process for them (`chrome://omnibox-popup.top-chrome/`),
 *   one per test, a tenth of a core while it ran.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
]

export const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup']

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_FEATURES].join(',')}`,
]
