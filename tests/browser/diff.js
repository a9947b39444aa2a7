// SPDX-License-Identifier: MIT
//
// aotperf diff's HTML page in headless Chromium (page.js): the page is
// drawn from its data document, which is the diff's JSON (render/diff.h);
// every expected value below is computed here from that document, not
// read from the viewer:
//
//   node diff.js --page diff.html --doc doc.json --shot out.png [--json diff.json]
//
// --json: the document --json wrote in the same run; the page's document
// must be it plus the listings (one shape for a diff).
//
// Checks: the run table (each side's time per run), each side's
// recordings and the consistency of its cores, the function table (the
// rows the text lists, in its order: time before and after in ms, the
// change coloured by its sign, relative, adjusted p and '*', the shares),
// each --func's hottest loop's cycles, the gate and its verdicts, the
// warnings, a click on a row opening its listing. Prints "ok: ..." / "FAIL: ..." lines and "shot: PATH".
'use strict';

const path = require('path');
const fs = require('fs');
const { openPage } = require('./page.js');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const doc = JSON.parse(fs.readFileSync(args.doc, 'utf8'));

function ok(cond, desc, detail) {
	if (cond) console.log('ok: ' + desc);
	else console.log('FAIL: ' + desc + (detail !== undefined ? ': ' + detail : ''));
}
// the words aotperf diff's formats use (render/table-cell.c): ms with two decimals,
// relative changes rounded, p-values as printf's %.2g
const ms = (ns, sign) => (sign && ns >= 0 ? '+' : '') + (ns / 1e6).toFixed(2);
const rel = (ch) => {
	if (ch.relative_pct === null) return ch.delta > 0 ? 'new' : '';
	const r = ch.relative_pct;
	return Math.abs(r) >= 9999.5 ? (r > 0 ? '>+9999%' : '<-9999%') : (r >= 0 ? '+' : '') + r.toFixed(0) + '%';
};
const g2 = (p) => p < 1e-9 ? '<1e-9' : p >= 1e-4 ? String(Number(p.toPrecision(2)))
	: p.toExponential(1).replace(/\.0e/, 'e').replace(/e([+-])(\d)$/, 'e$10$2');
const pcell = (ch) => ch.test === 'none' ? '-' : g2(ch.p_adjusted) + (ch.significant ? ' *' : '');
const fmt = (n) => Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

async function main() {
	const o = await openPage('file://' + path.resolve(args.page));
	const page = o.page;

	if (args.json) {
		const js = JSON.parse(fs.readFileSync(args.json, 'utf8'));
		const strip = (d) => { const c = Object.assign({}, d); delete c.listings; delete c.title; return c; };
		ok(JSON.stringify(strip(doc)) === JSON.stringify(strip(js)),
			'the page\'s data document is --json\'s document (plus its listings)');
	}

	// the run: each side's time per run, the wasm code's
	const totals = await page.$$eval('#diff-totals tbody tr', (r) => r.map((x) => Array.from(x.children).map((c) => c.textContent)));
	ok(totals.length >= 2 && totals[0][1] === ms(doc.run_time.before.mean) && totals[0][2] === ms(doc.run_time.after.mean) &&
		totals[0][3] === ms(doc.run_time.change.delta, 1) && totals[0][5] === pcell(doc.run_time.change),
	'run: CPU time per run before and after, its change and test (' + totals[0].slice(0, 4).join(' ') + ')', JSON.stringify(totals[0]));
	ok(totals.length >= 2 && totals[1][1] === ms(doc.wasm_time.before.mean) && totals[1][6] === doc.wasm.before.mean.toFixed(2),
		'in wasm code: time and share', JSON.stringify(totals[1]));

	// each side: its recordings' samples and time, its cores' consistency, its problem
	for (const side of ['before', 'after']) {
		const card = await page.textContent('#side-' + side);
		const sd = doc[side];
		const bad = sd.captures.filter((c) => !card.includes(c.perf) ||
			!card.includes(fmt(c.total_samples) + ' samples, ' + ms(c.time) + ' ms') ||
			(c.truncated && !card.includes('CUT SHORT')) || (!c.consistent && !card.includes('NOT consistent')));
		ok(bad.length === 0, side + ': every recording with its samples and time (' + sd.captures.length + ')', card.slice(0, 200));
		const cons = sd.cores.filter((c) => c.consistency).every((c) => card.includes(fmt(c.consistency.consistent) + ' of ' +
			fmt(c.consistency.checked) + ' sampled addresses fit') && (c.consistency.ok || card.includes('NOT consistent')));
		ok(cons, side + ': its cores\' consistency, as the document has it', card.slice(0, 300));
		ok(!sd.problem || card.includes(sd.problem), side + ': its problem said' + (sd.problem ? '' : ' (none)'));
	}

	// the function table: the rows the text lists, in its order, time first
	const rows = await page.$$eval('#diff-table tbody tr', (r) => r.map((x) => ({
		cells: Array.from(x.children).map((c) => c.textContent), d: x.children[3].className, sig: x.classList.contains('sig') })));
	const want = doc.functions.slice(0, doc.functions_listed);
	ok(rows.length === want.length, 'diff: the rows the text lists (' + want.length + ')', rows.length);
	const wrong = want.filter((f, i) => {
		const r = rows[i], t = f.self_time;
		if (!r) return true;
		const c = r.cells;
		return c[0] !== f.label || c[1] !== ms(t.before.mean) || c[2] !== ms(t.after.mean) || c[3] !== ms(t.change.delta, 1) ||
			c[4] !== rel(t.change) || c[5] !== pcell(t.change) || c[6] !== f.self.before.mean.toFixed(2) ||
			c[7] !== f.self.after.mean.toFixed(2) || r.sig !== t.change.significant ||
			(t.change.delta > 0 && !r.d.includes('worse')) || (t.change.delta < 0 && !r.d.includes('better'));
	});
	ok(wrong.length === 0, 'diff: every row\'s time before/after, change coloured by time, rel, p and shares = the document\'s',
		wrong.map((f) => f.label).join(', '));
	const note = await page.$$eval('#diff p.note', (p) => p.map((x) => x.textContent).join(' '));
	ok(note.includes('significant at ' + Math.round(100 * doc.level) + '%') && note.includes('over ' + doc.tested_functions_time +
		' tested'), 'diff: says what * means (level, family)', note.slice(0, 200));

	// each --func's hottest loop on both sides: the document's cycles (llvm-mca)
	const lps = (doc.classified_functions || []).filter((x) => x.hottest_loop && x.hottest_loop.sides);
	if (lps.length) {
		const cyc = (v) => (v ? v.cycles_per_iteration.toFixed(2) : '-');
		const wantc = lps.map((x) => {
			const h = x.hottest_loop, ch = h.change_cycles_per_iteration;
			return [h.mcpu || '-', cyc(h[h.sides[0]]), cyc(h[h.sides[1]]),
				ch === null || ch === undefined ? '-' : (ch > 0 ? '+' : '') + ch.toFixed(2)];
		});
		const got = await page.$$eval('#loop-pair-table tbody tr', (r) => r.map((x) =>
			Array.from(x.children).slice(1, 5).map((c) => c.textContent)));
		ok(JSON.stringify(got) === JSON.stringify(wantc), 'hottest loops before/after: the document\'s cycles (' +
			wantc.length + ')', JSON.stringify(got) + ' vs ' + JSON.stringify(wantc));
	}

	// the gate: its verdict and each check's
	if (doc.gate) {
		const h = await page.textContent('#gate h2');
		ok(h.includes(doc.gate.verdict), 'gate: its verdict (' + doc.gate.verdict + ')', h);
		const v = await page.$$eval('#gate-table tbody tr', (r) => r.map((x) => x.lastChild.textContent));
		ok(JSON.stringify(v) === JSON.stringify(doc.gate.checks.map((c) => c.verdict)), 'gate: each check\'s verdict', v.join(','));
		if (doc.gate.reason) {
			const g = await page.textContent('#gate');
			ok(g.includes(doc.gate.reason), 'gate: why, in the document\'s words');
		}
	}
	if (doc.warnings.length) {
		const w = await page.$$eval('#summary ul.warn li', (l) => l.map((x) => x.textContent));
		ok(JSON.stringify(w) === JSON.stringify(doc.warnings), 'the warnings (' + doc.warnings.length + ')', w.join(' / '));
	}

	// a listed function picked in the table opens its listing (the coldest listed one)
	const listed = (doc.listings || []).filter((l) => want.some((f) => f.after_func && f.after_func.local_func === l.local_func));
	const dl = listed.slice().sort((a, b) => a.samples - b.samples)[0];
	if (dl) {
		const nrow = await page.$$eval('#diff-table tbody td.name.has-listing', (r) => r.length);
		ok(nrow === listed.length, 'diff: rows with a listing are marked (' + nrow + ')', nrow);
		const f = want.find((x) => x.after_func && x.after_func.local_func === dl.local_func);
		const names = await page.$$('#diff-table tbody td.name');
		for (const n of names)
			if (await n.textContent() === f.label) { await n.click(); break; }
		const h = await page.textContent('#listing-box h3');
		ok(h.includes('local_func_' + dl.local_func), 'diff: a click on a row opens its listing', h);
		const lr = await page.$$eval('#listing-table tbody tr:not(.range)', (r) => r.length);
		ok(lr === dl.insns.length, 'diff: the listing has every instruction (' + dl.insns.length + ')', lr);
	}

	const csps = await page.evaluate(() => window.__csp);
	ok(csps.length === 0, 'no CSP violations', csps.join('; '));
	ok(o.requests.length === 0, 'no request besides the file itself', o.requests.join(' '));
	ok(o.errors.length === 0, 'no console errors or warnings', o.errors.join(' / '));
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: args.shot, fullPage: true });
	console.log('shot: ' + path.resolve(args.shot));
	await o.close();
}

main().catch((e) => {
	console.log('FAIL: the browser check did not run: ' + e.message);
	process.exit(1);
});
