// SPDX-License-Identifier: MIT
//
// The run's lever table on the HTML report (report --levers, docs/levers.md)
// in headless Chromium (playwright-core, /usr/bin/chromium, no network),
// for tests/e2e/levers.sh. The expected values are the page's data
// document, read here, not the viewer's:
//
//   node levers.js --page P.html --doc DOC.json --shot LEVERS.png
//
// The table's rows are the document's levers.rows in order (lever,
// functions, instructions, predicted run payoff with one decimal, "not
// modelled" where the payoff is null); the chart has a bar per row whose
// filled width is its payoff against the largest payoff plus its band; the
// verdict is the document's. Prints "ok: ..." / "FAIL: ..." lines and
// "shot: PATH" (the levers section).
'use strict';

const path = require('path');
const fs = require('fs');
const { openPage } = require('./page.js');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const doc = JSON.parse(fs.readFileSync(args.doc, 'utf8'));
const pageUrl = 'file://' + path.resolve(args.page);

function ok(cond, desc, detail) {
	console.log((cond ? 'ok: ' : 'FAIL: ') + desc + (!cond && detail !== undefined ? ': ' + detail : ''));
}

async function check(page) {
	const lv = doc.levers;
	const rows = await page.$$eval('#levers-table tbody tr', (trs) => trs.map((tr) =>
		[...tr.querySelectorAll('td')].map((td) => td.textContent)));
	ok(rows.length === lv.rows.length, 'the lever table has a row per lever (' + lv.rows.length + ')', rows.length);
	lv.rows.forEach((r, i) => {
		const want = [r.lever, String(r.functions), String(r.removed),
			r.payoff_pct === null ? (r.removed ? 'not modelled' : '-') : r.payoff_pct.toFixed(1) + '%'];
		const got = rows[i] ? [rows[i][0], rows[i][1], rows[i][2], rows[i][5]] : [];
		ok(JSON.stringify(got) === JSON.stringify(want), 'row ' + (i + 1) + ': ' + want.join(' '), JSON.stringify(got));
	});
	// the chart: filled width / track width = payoff / (largest payoff_hi + tolerance)
	let max = 0;
	lv.rows.forEach((r) => { if (r.payoff_pct !== null) max = Math.max(max, r.payoff_hi_pct + r.tolerance_pct); });
	const bars = await page.$$eval('#levers-chart .track', (ts) => ts.map((t) => {
		const f = t.querySelector('.fill:not(.bound):not(.tol)');
		return { lever: t.getAttribute('data-lever'), w: t.getBoundingClientRect().width,
			f: f ? f.getBoundingClientRect().width : 0 };
	}));
	ok(bars.length === lv.rows.length, 'the chart has a bar per lever', bars.length);
	lv.rows.forEach((r, i) => {
		const b = bars[i] || { w: 1, f: -1 };
		const want = r.payoff_pct === null || max <= 0 ? 0 : Math.max(0, r.payoff_pct) / max;
		ok(b.lever === r.lever && Math.abs(b.f / b.w - want) < 0.01, 'bar ' + r.lever + ': ' +
			(100 * want).toFixed(1) + '% of its track', (100 * b.f / b.w).toFixed(1) + '%');
	});
	const verdict = await page.$eval('#levers-verdict', (e) => e.textContent);
	ok(verdict === 'verdict: ' + lv.verdict, 'the verdict is the document\'s', verdict);
	const sec = await page.$('#levers');
	await sec.screenshot({ path: args.shot });
	console.log('shot: ' + path.resolve(args.shot));
}

async function main() {
	const o = await openPage(pageUrl);
	await check(o.page);
	ok(o.errors.length === 0, 'no console errors', o.errors.join('; '));
	ok(o.requests.length === 0, 'no requests but the page', o.requests.join(' '));
	await o.close();
}

main().then(() => process.exit(0), (e) => {
	console.log('FAIL: browser run: ' + (e && e.message ? e.message.split('\n')[0] : e));
	process.exit(1);
});
