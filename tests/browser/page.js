// SPDX-License-Identifier: MIT
//
// Opening an aotperf HTML report in headless Chromium for the browser
// checks (playwright-core, /usr/bin/chromium or $CHROMIUM): a fresh
// profile, no network (any request but the page itself is counted and
// aborted), console errors and CSP violations collected, the time from
// loading to the viewer's data-ready (renderMs).
'use strict';

const path = require('path');
const fs = require('fs');
const { chromium } = require('playwright-core');

async function openPage(pageUrl) {
	const userDir = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'chromium-profile.'));
	const context = await chromium.launchPersistentContext(userDir, {
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			'--disable-dev-shm-usage'],
		viewport: { width: 1280, height: 900 },
	});
	const page = context.pages()[0] || await context.newPage();
	const errors = [], requests = [];
	page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.type() + ': ' + m.text()); });
	page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
	await context.route('**/*', (route) => {
		const u = route.request().url();
		if (u === pageUrl) return route.continue();
		requests.push(u);
		return route.abort();
	});
	await page.addInitScript(() => {
		window.__csp = [];
		document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
	});
	const t0 = Date.now();
	await page.goto(pageUrl);
	await page.waitForSelector('html[data-ready]', { timeout: 15000 });
	const renderMs = Date.now() - t0;
	const close = async () => {
		await context.close();
		fs.rmSync(userDir, { recursive: true, force: true });
	};
	return { page, errors, requests, close, renderMs };
}

module.exports = { openPage };
