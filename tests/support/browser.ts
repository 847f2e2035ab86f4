import { access, constants } from 'node:fs/promises';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response as PwResponse } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** The system (Debian) chromium the browser tests drive; no browser is ever downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const REQUIRED = process.env.PORTICO_REQUIRE_BROWSER === '1';

/**
 * Whether the system chromium is installed. Without it the browser tests are skipped with a loud
 * notice, unless PORTICO_REQUIRE_BROWSER=1 (CI), where this throws and the test file fails.
 */
export async function browserAvailable(): Promise<boolean> {
  try {
    await access(CHROMIUM_PATH, constants.X_OK);
    return true;
  } catch (error) {
    if (REQUIRED) throw new Error(`PORTICO_REQUIRE_BROWSER=1 but chromium is required and ${CHROMIUM_PATH} is missing: ${String(error)}`);
    console.warn(`\n*** chromium not found: browser tests are SKIPPED (looked for ${CHROMIUM_PATH}) ***\n`);
    return false;
  }
}

/** Launches headless chromium with everything that phones home or needs a GPU switched off. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Clicks `button` (which submits a POST form to `action`); resolves with the POST's response once the resulting page has loaded. */
export async function submitForm(page: Page, button: Locator, action: string): Promise<PwResponse> {
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === action);
  const loaded = page.waitForEvent('load');
  await button.click();
  const [res] = await Promise.all([posted, loaded]);
  return res;
}

/** What a browser test file drives: a server with a base URL. */
export interface BrowserTestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The browser session of a test file (see {@link browserPerTest}). */
export interface BrowserSession<S extends BrowserTestServer> {
  /** The server `start` gave. */
  server(): S;
  /** The test's own context (fresh cookies every test). */
  context(): BrowserContext;
  /** A page in the test's context. */
  page(): Promise<Page>;
  /** `server().url` + `path`. */
  at(path: string): string;
}

/**
 * For a browser test file: launches chromium and `start`s its server before all tests, gives
 * each test a fresh context (1280×800, 10 s timeouts) and closes everything after.
 */
export function browserPerTest<S extends BrowserTestServer>(start: () => Promise<S>): BrowserSession<S> {
  let browser: Browser | undefined;
  let server: S | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), start()]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close()]);
  });
  beforeEach(async () => {
    context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await context?.close();
  });
  const running = (): S => {
    if (!server) throw new Error('the browser test server is not started');
    return server;
  };
  return {
    server: running,
    context: () => context as BrowserContext,
    page: () => (context as BrowserContext).newPage(),
    at: (path) => `${running().url}${path}`,
  };
}
