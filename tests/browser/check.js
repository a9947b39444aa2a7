// SPDX-License-Identifier: MIT
//
// Loads an aotperf HTML report in headless Chromium (playwright-core, the
// system's /usr/bin/chromium; the network is never used) and checks the
// rendered page against its data document, whose expected values are
// computed here from the document, not taken from the viewer:
//
//   node check.js --page report.html --doc doc.json --shot out.png [--filter Q]
//                 [--samples N]    (the recording's samples: the icicle's root)
//                 [--loopshot PNG] (a screenshot of the listing with its hot loops)
//
// A document of several sampling events ("events", docs/html-data.md): the
// checks below run on the first event's block (the top-level keys are its
// document, its elements keep the one-event ids), then each event's block
// is checked against its own entry.
//
// Prints "ok: ..." / "FAIL: ..." lines (tests/browser/exports.sh counts
// them) and "shot: PATH"; exit status 0 unless the browser could not run.
'use strict';

const path = require('path');
const fs = require('fs');
const { openPage } = require('./page.js');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const doc = JSON.parse(fs.readFileSync(args.doc, 'utf8'));
const pageUrl = 'file://' + path.resolve(args.page);

let failures = 0;
function ok(cond, desc, detail) {
	if (cond) console.log('ok: ' + desc);
	else { failures++; console.log('FAIL: ' + desc + (detail !== undefined ? ': ' + detail : '')); }
}
function fmt(n) {
	return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// ---- what the document says, computed independently of the viewer ----
const cores = Array.isArray(doc.cores) ? doc.cores : [doc];
const core0 = cores[0];
// functions[] rows, or (a plain report --json) its top_functions
const rowsOf = (c) => (c.functions ? c.functions.map((r) => ({ f: r[0], s: r[1], b: r[2], n: r[3] || '' }))
	: (c.top_functions || []).map((t) => ({ f: t.local_func, s: t.samples, b: t.code_bytes, n: t.name || '' })));
const rows = rowsOf(core0);
const bySamples = rows.slice().sort((a, b) => b.s - a.s || a.f - b.f);
const listings = doc.listings || [];
const hottestListing = listings.slice().sort((a, b) => b.samples - a.samples)[0];
const events = Array.isArray(doc.events) && doc.events.length > 1 ? doc.events : null;
// class-based selectors: inside the first event's block when there are several
const B0 = events ? '#event-0 ' : '';

function stackRootTotal(st) {
	if (!st) return 0;
	if (Array.isArray(st.nodes)) return st.nodes.filter((n) => n.parent < 0).reduce((a, n) => a + n.total, 0);
	return st.total;
}

// Several events: a block per event, each drawn from its own entry of "events".
async function checkEvents(page) {
	const nblocks = await page.$$eval('section.event-block', (b) => b.length);
	ok(nblocks === events.length, 'a block per event (' + events.length + ')', nblocks);
	const ids = await page.$$eval('[id]', (e) => e.map((x) => x.id));
	ok(new Set(ids).size === ids.length, 'element ids unique across the blocks (' + ids.length + ')');
	for (let i = 0; i < events.length; i++) {
		const e = events[i], p = i ? 'event' + i + '-' : '', name = e.event;
		const title = await page.textContent('#event-' + i + ' h2.event-title');
		ok(title.includes(name) && title.includes(fmt(e.total_samples) + ' samples'),
			name + ': its block is titled with the event and its samples', title);
		const sum = await page.textContent('#' + p + 'summary');
		ok(sum.includes(name) && sum.includes('samples' + fmt(e.total_samples)),
			name + ': its run card has its event and total', sum.slice(0, 120));
		const ecores = Array.isArray(e.cores) ? e.cores : [e];
		const hot = rowsOf(ecores[0]).sort((a, b) => b.s - a.s || a.f - b.f)[0];
		const row = await page.$eval('#' + p + 'fn-body .vrow', (r) => Array.from(r.children).map((c) => c.textContent));
		ok(hot && row[1] === 'local_func_' + hot.f && row[3] === fmt(hot.s), name + ': its function table, its hottest first',
			row.join(' | '));
		if (e.stacks) {
			const root = await page.$eval('#' + p + 'flame svg rect title', (t) => t.textContent);
			ok(root.startsWith('all samples\n' + fmt(stackRootTotal(e.stacks)) + ' samples'),
				name + ': its icicle holds its own samples (' + stackRootTotal(e.stacks) + ')', root);
		} else {
			const bars = await page.$$eval('#' + p + 'flame .selfbars .track', (r) => r.length);
			ok(bars > 0, name + ': its self-sample chart (' + bars + ' bars)');
		}
		const el = (e.listings || []).slice().sort((a, b) => b.samples - a.samples)[0];
		if (el) {
			const h = await page.textContent('#' + p + 'listing-box h3');
			ok(h.includes('local_func_' + el.local_func), name + ': its hottest listing', h);
		}
	}
}

async function main() {
	const o = await openPage(pageUrl);
	const page = o.page, errors = o.errors, requests = o.requests;
	console.log('note: rendered in ' + o.renderMs + ' ms');

	const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
	ok(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'/.test(csp), 'strict CSP meta tag', csp);
	ok(await page.evaluate(() => document.styleSheets.length === 1 && document.styleSheets[0].cssRules.length > 50),
		'the inlined stylesheet applies under the CSP');

	// the summary names each core's target (the report's artifact_target: what it was decoded as)
	const arch0 = core0.artifact_target ? core0.artifact_target.decoded_as : core0.target && core0.target.arch;
	if (arch0) {
		const card = await page.textContent('#core-0');
		ok(card.includes(arch0), 'summary shows the target (' + arch0 + ')', card);
	}

	// how each core's mapping was found: the text report's words (mapping.how)
	for (let i = 0; i < cores.length; i++) {
		const m = cores[i].mapping;
		if (!m || m.how === undefined) continue;
		const card = await page.textContent('#core-' + i);
		ok(card.includes('mapping' + m.how + ', ' + m.count + ' mapping(s)'),
			'core ' + i + ': the mapping in the text report\'s words (' + m.how + ')', card);
	}
	// a recording cut short says so above the cards, with the document's figures
	const cut = await page.$('#cut-short');
	ok(!!cut === !!doc.truncated, 'a CUT SHORT banner exactly when the document is truncated (' + !!doc.truncated + ')');
	if (cut && doc.truncated) {
		const t = await cut.textContent();
		ok(t.includes('read ' + fmt(doc.bytes_read) + ' of ' + fmt(doc.bytes_expected) + ' data bytes'),
			'the banner gives bytes read and expected', t);
	}

	// function table: virtualised rows, the hottest first, the count line
	// (the table opens on the core of the listed function: pick the first)
	if (cores.length > 1) await page.selectOption('#fn-core', '0');
	const n = rows.length;
	const count = await page.textContent('#fn-count');
	ok(count === fmt(n) + ' of ' + fmt(n) + ' functions', 'function count line', count);
	const nrows = await page.$$eval('#fn-body .vrow', (r) => r.length);
	ok(nrows === Math.min(n, nrows) && nrows >= Math.min(n, 10) && nrows <= 60,
		'function rows drawn, only the visible ones (' + nrows + ' of ' + n + ')');
	const first = await page.$eval('#fn-body .vrow', (r) => Array.from(r.children).map((c) => c.textContent));
	const want = bySamples[0];
	ok(first[1] === 'local_func_' + want.f && first[3] === fmt(want.s), 'hottest function first',
		first.join(' | ') + ' vs local_func_' + want.f + ' ' + want.s);
	// scrolled to the end: the last rank is drawn
	await page.$eval('#fn-body', (b) => { b.scrollTop = b.scrollHeight; });
	await page.waitForTimeout(100);
	const lastRank = await page.$$eval('#fn-body .vrow', (r) => Math.max(...r.map((x) => Number(x.children[0].textContent))));
	ok(lastRank === n, 'scrolling draws the last rows', lastRank);
	// sort by function index
	await page.click(B0 + '.vhead button[data-key="f"]');
	const firstByIndex = await page.$eval('#fn-body .vrow', (r) => r.children[1].textContent);
	ok(firstByIndex === 'local_func_' + Math.min(...rows.map((r) => r.f)), 'sort by function', firstByIndex);
	await page.click(B0 + '.vhead button[data-key="s"]');

	// filter
	const q = args.filter || ('local_func_' + bySamples[1].f);
	const expect = rows.filter((r) => ('local_func_' + r.f + ' ' + r.n).toLowerCase().includes(q.toLowerCase())).length;
	const t1 = Date.now();
	await page.fill('#fn-filter', q);
	await page.waitForFunction((e) => document.getElementById('fn-count').textContent.startsWith(e), fmt(expect));
	const ms = Date.now() - t1;
	/* a note, not a check: the machines running the tests are shared */
	console.log('note: filter over ' + fmt(n) + ' functions answered in ' + ms + ' ms');
	const shown = await page.$$eval('#fn-body .vrow', (r) => r.map((x) => (x.children[1].textContent + ' ' + x.children[2].textContent).toLowerCase()));
	ok(shown.length === Math.min(expect, shown.length) && shown.length > 0 && shown.every((s) => s.includes(q.toLowerCase())),
		'filter "' + q + '" keeps ' + expect + ' matching rows');
	await page.fill('#fn-filter', '');
	await page.waitForFunction((e) => document.getElementById('fn-count').textContent.startsWith(e), fmt(n));

	// flame graph, or the self-sample bars without stacks
	if (doc.stacks) {
		const rects = await page.$$eval('#flame svg rect', (r) => r.map((x) => ({
			w: Number(x.getAttribute('width')), y: Number(x.getAttribute('y')),
			t: x.querySelector('title').textContent, k: x.getAttribute('data-kind') })));
		const total = stackRootTotal(doc.stacks);
		ok(rects.length > 4, 'flame graph drawn (' + rects.length + ' frames)');
		ok(rects.length && rects[0].t.startsWith('all samples\n' + fmt(total) + ' samples'), 'flame root holds all samples', rects[0] && rects[0].t);
		if (args.samples !== undefined)
			ok(total === Number(args.samples), 'flame root = the recording\'s samples (' + args.samples + ')', total);
		// every drawn frame is a node of the document: its name, depth and samples
		const flat = doc.stacks.nodes || [];
		const depth = flat.map(() => 0);
		flat.forEach((x, i) => { depth[i] = x.parent >= 0 ? depth[x.parent] + 1 : 1; });
		const at = new Set(flat.map((x, i) => depth[i] + '|' + x.name + '\n' + fmt(x.total) + ' samples'));
		const stray = rects.slice(1).filter((r) => !at.has(Math.round(r.y / 18) + '|' + r.t.replace(/ \(.*$/s, '')));
		ok(flat.length && !stray.length, 'each drawn frame is a document node at its depth, with its samples (' +
			(rects.length - 1) + ')', stray.slice(0, 3).map((r) => r.t.split('\n')[0] + '@' + r.y).join(', '));
		// the kinds drawn: wasm and host always, kernel and the unknown marker where the document has them
		const kinds = ['wasm', 'host'].concat(['kernel', 'unknown'].filter((k) => flat.some((x) => x.kind === k && x.total * 1000 >= total)));
		ok(kinds.every((k) => rects.some((r) => r.k === k)), kinds.join(', ') + ' frames drawn');
		// a frame's width is its share of the root's
		const big = flat.filter((x) => x.parent >= 0).sort((a, b) => b.total - a.total)[0];
		const rb = big && rects.find((r) => r.t.startsWith(big.name + '\n'));
		ok(rb && Math.abs(rb.w - rects[0].w * big.total / total) < 1.5, 'frame width = share of samples (' + (big && big.name) + ')',
			rb && rb.w + ' vs ' + (rects[0].w * big.total / total));
		// click to zoom: the frame becomes the full width
		if (rb) {
			await page.click('#flame svg rect[data-kind="' + rb.k + '"] >> nth=' + rects.filter((r) => r.k === rb.k).indexOf(rb));
			const zw = await page.$$eval('#flame svg rect', (r) => r.filter((x) => !x.classList.contains('dim'))[0].getAttribute('width'));
			ok(Math.abs(Number(zw) - rects[0].w) < 1.5, 'click zooms into a frame');
			await page.click('#flame svg rect >> nth=0');
		}
		// a wasm frame that has a listing: a click opens it
		const withListing = flat.filter((x) => x.kind === 'wasm' && listings.some((l) => l.core === x.core && l.local_func === x.local_func))
			.sort((a, b) => b.total - a.total)[0];
		const rw = withListing && rects.find((r) => r.k === 'wasm' && r.t.startsWith(withListing.name + '\n'));
		if (rw) {
			await page.click('#flame svg rect[data-kind="wasm"] >> nth=' + rects.filter((r) => r.k === 'wasm').indexOf(rw));
			const h = await page.textContent('#listing-box h3');
			ok(h.includes('local_func_' + withListing.local_func), 'a click on a wasm frame opens its listing', h);
			await page.click('#flame svg rect >> nth=0');
		}
		// back to the hottest listing for the checks below
		if (hottestListing) {
			if (cores.length > 1) await page.selectOption('#fn-core', String(cores.findIndex((c) => c.core === hottestListing.core)));
			await page.click('#fn-body .vrow[data-func="' + hottestListing.local_func + '"]');
			if (cores.length > 1) await page.selectOption('#fn-core', '0');
		}
	} else {
		const bars = await page.$$eval(B0 + '.selfbars .track', (r) => r.length);
		const hosts = doc.outside_wasm ? doc.outside_wasm.rows.filter((h) => h.samples > 0) : [];
		const wasmHot = cores.reduce((a, c) => a.concat(rowsOf(c).filter((r) => r.s > 0).map((r) => r.s)), []);
		ok(bars === Math.min(25, wasmHot.length + hosts.length), 'self-sample chart without stacks (' + bars + ' bars)');
		if (hosts.length) {
			// host bars: the document's host frames among the 25 largest (wasm first on ties)
			const nhost = await page.$$eval(B0 + '.selfbars .fill.host, ' + B0 + '.selfbars .fill.kernel', (r) => r.length);
			const top = wasmHot.concat(hosts.map((h) => -h.samples))
				.sort((a, b) => Math.abs(b) - Math.abs(a) || b - a).slice(0, 25);
			ok(nhost === top.filter((v) => v < 0).length, 'host and kernel frames in the chart (' + nhost + ')');
			const sum = await page.textContent('#summary');
			ok(sum.includes('outside wasm') && sum.includes(fmt(doc.outside_wasm.samples)) &&
				sum.includes(doc.outside_wasm.percent_of_run.toFixed(2) + '%'), 'summary: samples outside wasm, the document\'s share');
		}
	}

	// class mix bars
	const nmix = await page.$$eval(B0 + '.mixbars .mix', (r) => r.length);
	const ncf = (doc.classified_functions || []).length || (doc.classified_function ? 1 : 0);
	ok(nmix >= Math.max(ncf, 1), 'class-mix bars (' + nmix + ')');

	// listing of the hottest listed function: rows, classes, colours, samples, data ranges
	if (hottestListing) {
		const head = await page.textContent('#listing-box h3');
		ok(head.includes('local_func_' + hottestListing.local_func), 'listing of the hottest listed function', head);
		const lrows = await page.$$eval('#listing-table tbody tr:not(.range)', (r) => r.map((x) => ({
			cls: x.className.split(' ').find((c) => c.startsWith('c-')),
			indata: x.classList.contains('indata'),
			s: Number((x.children[4].textContent || '0').replace(/,/g, '')),
			bg: getComputedStyle(x.querySelector('td.cls')).backgroundColor })));
		const insns = hottestListing.insns;
		ok(lrows.length === insns.length, 'listing rows = instructions (' + insns.length + ')', lrows.length);
		ok(lrows.every((r, i) => insns[i] && r.cls === 'c-' + insns[i].class), 'each row carries its class');
		const sum = lrows.reduce((a, r) => a + r.s, 0);
		ok(sum === insns.reduce((a, x) => a + x.samples, 0), 'listing samples add up (' + sum + ')');
		const colours = {};
		lrows.forEach((r) => { colours[r.cls] = r.bg; });
		const distinct = new Set(Object.values(colours));
		ok(Object.keys(colours).length >= 2 && distinct.size === Object.keys(colours).length &&
			!distinct.has('rgba(0, 0, 0, 0)'), 'listing coloured: one colour per class (' + distinct.size + ' classes)');
		const nranges = await page.$$eval('#listing-table tr.range', (r) => r.length);
		const ranges = hottestListing.data_ranges || [];
		ok(nranges === ranges.length, 'data ranges marked (' + ranges.length + ')', nranges);
		const inData = insns.map((x) => ranges.some((g) => x.offset >= g.start && x.offset < g.end));
		ok(lrows.every((r, i) => r.indata === inData[i]), 'rows inside data ranges are marked');
		// another listed function, picked in the table
		const other = listings.find((l) => l !== hottestListing && l.core === hottestListing.core);
		if (other) {
			const ci = cores.findIndex((c) => c.core === other.core);
			if (cores.length > 1 && ci >= 0) await page.selectOption('#fn-core', String(ci));
			await page.fill('#fn-filter', 'local_func_' + other.local_func);
			await page.click('#fn-body .vrow[data-func="' + other.local_func + '"]');
			const h2 = await page.textContent('#listing-box h3');
			ok(h2.includes('local_func_' + other.local_func), 'a click in the table opens that listing', h2);
			await page.fill('#fn-filter', '');
			await page.click('#fn-body .vrow[data-func="' + hottestListing.local_func + '"]');
		}
	}

	// hot loops (report --func/--hot): the hottest loop's rows marked, the loops and what-if tables
	const cfOf = (l) => (doc.classified_functions || []).find((c) => c.local_func === l.local_func &&
		(!c.core || !l.core || c.core === l.core));
	const lcf = hottestListing && cfOf(hottestListing);
	if (lcf && Array.isArray(lcf.loops) && lcf.loops.length) {
		const hl = lcf.loops[0];
		const inLoop = (off) => hl.blocks.some((b) => off >= b[0] && off < b[1]);
		const want = hottestListing.insns.map((x) => inLoop(x.offset));
		const got = await page.$$eval('#listing-table tbody tr:not(.range)', (r) => r.map((x) => x.classList.contains('inloop')));
		ok(want.filter(Boolean).length > 0 && JSON.stringify(got) === JSON.stringify(want),
			'the hottest loop\'s instructions are marked in the listing (' + want.filter(Boolean).length + ' of ' + want.length + ')');
		const head = await page.$$eval('#listing-table tr.loophead', (r) => r.map((x) => Number(x.getAttribute('data-offset'))));
		ok(head.length === 1 && head[0] === hl.header, 'its header row is marked (+0x' + hl.header.toString(16) + ')', head.join(','));
		const lt = await page.$$eval('#loops-table tbody tr', (r) => r.map((x) => Array.from(x.children).map((c) => c.textContent)));
		ok(lt.length === Math.min(5, lcf.loops.length) && lt[0][1] === '+0x' + hl.header.toString(16) &&
			lt[0][5] === fmt(hl.samples) && lt[0][6] === hl.percent_of_function.toFixed(1) + '%',
			'loops table: ' + lt.length + ' rows, the hottest first with its samples', JSON.stringify(lt[0]));
		if (hl.model) {
			const levers = Object.keys(hl.whatif).sort((a, b) => {
				const x = hl.whatif[a], y = hl.whatif[b];
				const rank = (w) => !w.removed ? -1e9 : w.payoff_pct === null ? -1e8 : w.payoff_pct;
				return rank(y) - rank(x);
			});
			const wt = await page.$$eval('#whatif-table tbody tr', (r) => r.map((x) => Array.from(x.children).map((c) => c.textContent)));
			const exp = levers.map((lv) => {
				const w = hl.whatif[lv];
				return [lv, w.sample_pct.toFixed(1) + '%', !w.removed ? '-' :
					w.payoff_pct === null ? 'not modelled' : w.payoff_pct.toFixed(1) + '%',
					w.removed ? w.cycles_per_iteration.toFixed(2) : '-', String(w.removed), hl.model.mcpu];
			});
			ok(JSON.stringify(wt) === JSON.stringify(exp), 'what-if table = the document\'s whatif, by payoff (' + exp.length + ' levers)',
				JSON.stringify(wt) + ' vs ' + JSON.stringify(exp));
			const ml = await page.textContent('#loops-box');
			ok(ml.includes(hl.model.cycles_per_iteration.toFixed(2) + ' cycles/iteration') && ml.includes('-mcpu=' + hl.model.mcpu),
				'the model line: cycles as compiled and -mcpu=' + hl.model.mcpu);
		} else if (typeof lcf.loops_model_note === 'string') {
			const ml = await page.textContent('#model-line');
			ok(ml.includes(lcf.loops_model_note), 'no model: the page says why and how to get it', ml);
		}
		if (args.loopshot) {
			await page.$eval('#listing', (e) => e.scrollIntoView());
			await (await page.$('#listing')).screenshot({ path: args.loopshot });
			console.log('shot: ' + path.resolve(args.loopshot));
		}
	}

	// several cores: the selector switches the table, a listing of the second core opens
	if (cores.length > 1) {
		const rows1 = rowsOf(cores[1]);
		const hot1 = rows1.slice().sort((a, b) => b.s - a.s || a.f - b.f)[0];
		await page.selectOption('#fn-core', '1');
		const c1 = await page.textContent('#fn-count');
		ok(c1 === fmt(rows1.length) + ' of ' + fmt(rows1.length) + ' functions', 'core selector shows the second core', c1);
		const f1 = await page.$eval('#fn-body .vrow', (r) => r.children[1].textContent);
		ok(hot1 && f1 === 'local_func_' + hot1.f, 'second core: its hottest function first', f1);
		const l1 = listings.find((l) => l.core === cores[1].core);
		if (l1) {
			await page.click('#fn-body .vrow[data-func="' + l1.local_func + '"]');
			const h = await page.textContent('#listing-box h3');
			ok(h.startsWith(cores[1].core + ':local_func_' + l1.local_func), 'second core: its listing opens', h);
		}
		await page.selectOption('#fn-core', '0');
	}

	// a plain report --json: the hottest classified function's hottest instructions
	const cfs = doc.classified_functions || (doc.classified_function ? [doc.classified_function] : []);
	if (!listings.length && cfs.length) {
		const cf = cfs.slice().sort((a, b) => b.samples - a.samples)[0];
		const head = await page.textContent('#listing-box h3');
		ok(head.includes('local_func_' + cf.local_func), 'partial listing of the hottest classified function', head);
		const lr = await page.$$eval('#listing-table tbody tr', (r) => r.map((x) => x.getAttribute('data-offset') + ' ' +
			x.className.split(' ').find((c) => c.startsWith('c-'))));
		const want = cf.hottest_instructions.slice().sort((a, b) => a.offset - b.offset).map((h) => h.offset + ' c-' + h.class);
		ok(JSON.stringify(lr) === JSON.stringify(want), 'partial listing = hottest_instructions, in address order (' + want.length + ')');
	}

	// before / after
	if (doc.diff) {
		const d = doc.diff, bt = d.before.total_samples, at = d.after.total_samples;
		const top = d.functions.map((x) => ({ f: x.local_func, dp: 100 * x.after / at - 100 * x.before / bt }))
			.sort((a, b) => Math.abs(b.dp) - Math.abs(a.dp))[0];
		const drow = await page.$eval('#diff-table tbody tr', (r) => Array.from(r.children).map((c) => c.textContent + '|' + c.className));
		ok(drow[0].startsWith('local_func_' + top.f), 'diff: the largest change first', drow[0]);
		ok(drow[5].startsWith((top.dp > 0 ? '+' : '') + top.dp.toFixed(2)) && drow[5].includes(top.dp > 0 ? 'worse' : 'better'),
			'diff: change in points, marked ' + (top.dp > 0 ? 'worse' : 'better'), drow[5]);
		const ndrows = await page.$$eval('#diff-table tbody tr', (r) => r.length);
		ok(ndrows === Math.min(100, d.functions.length), 'diff rows (' + ndrows + ')');
		// each function's hottest loop on both sides (diff, compare): the document's cycles
		const lps = (d.classes || []).filter((x) => x.hottest_loop && x.hottest_loop.sides);
		if (lps.length) {
			const cyc = (v) => (v ? v.cycles_per_iteration.toFixed(2) : '-');
			const want = lps.map((x) => {
				const h = x.hottest_loop, ch = h.gap_cycles_per_iteration !== undefined ? h.gap_cycles_per_iteration : h.change_cycles_per_iteration;
				return [h.mcpu || '-', cyc(h[h.sides[0]]), cyc(h[h.sides[1]]), ch === null ? '-' : (ch > 0 ? '+' : '') + ch.toFixed(2)];
			});
			const got = await page.$$eval('#loop-pair-table tbody tr', (r) => r.map((x) => Array.from(x.children).slice(1, 5).map((c) => c.textContent)));
			ok(JSON.stringify(got) === JSON.stringify(want), 'hottest loops before/after: the document\'s cycles (' + want.length + ')',
				JSON.stringify(got) + ' vs ' + JSON.stringify(want));
			const lv = lps.find((x) => x.hottest_loop.levers && Object.keys(x.hottest_loop.levers).length);
			if (lv) {
				const lrows = await page.$$eval('#loop-lever-table tbody tr', (r) => r.map((x) => x.children[3].textContent));
				const lw = Object.values(lv.hottest_loop.levers).map((v) => (v.gap_cycles_per_iteration > 0 ? '+' : '') +
					v.gap_cycles_per_iteration.toFixed(2));
				ok(JSON.stringify(lrows) === JSON.stringify(lw), 'the gap per lever (' + lw.length + ')', JSON.stringify(lrows));
			}
		}
		// aotperf diff's tests: each row's p (adj.) and '*' as the document says, printf's %.2g
		if (d.functions.some((x) => x.p_adjusted !== undefined)) {
			const heads = await page.$$eval('#diff-table thead th', (h) => h.map((x) => x.textContent));
			ok(heads[6] === 'p (adj.)', 'diff: a p (adj.) column', heads.join('|'));
			const cells = await page.$$eval('#diff-table tbody tr', (r) => r.map((x) => ({
				name: x.children[0].textContent, d: x.children[5].textContent, p: x.children[6].textContent,
				sig: x.classList.contains('sig') })));
			const g2 = (p) => p === undefined ? '-' : p < 1e-9 ? '<1e-9' : p >= 1e-4 ? String(Number(p.toPrecision(2)))
				: p.toExponential(1).replace(/\.0e/, 'e').replace(/e([+-])(\d)$/, 'e$10$2');
			const byName = {};
			d.functions.forEach((x) => { byName[x.name || 'local_func_' + x.local_func] = x; });
			const bad = cells.filter((c) => {
				const x = byName[c.name.replace(/^local_func_\d+ ?/, '')] || byName[c.name];
				return !x || c.p !== g2(x.p_adjusted) || c.sig !== !!x.significant ||
					c.d.endsWith(' *') !== !!x.significant;
			});
			ok(bad.length === 0, 'diff: every row\'s p (adj.) and * = the document\'s test (' +
				cells.filter((c) => c.sig).length + ' significant)', bad.map((c) => c.name + ' ' + c.p).join(', '));
			const note = await page.$$eval('#diff p.note', (p) => p.map((x) => x.textContent).join(' '));
			ok(note.includes('significant at ' + Math.round(100 * d.level) + '%') && note.includes(d.adjust + '-adjusted over ' +
				d.tested_functions), 'diff: says what * means (level, adjustment, family)', note);
		}
		// a listed function picked in the diff table opens its listing
		// (of the rows shown, the coldest listed one: the hottest opens by itself)
		const shownF = new Set((await page.$$eval('#diff-table tbody td.name', (r) => r.map((x) => x.textContent)))
			.map((t) => Number((/^local_func_(\d+)/.exec(t) || [])[1])));
		const shownL = listings.filter((l) => shownF.has(l.local_func) &&
			d.functions.some((x) => x.local_func === l.local_func && (x.core === undefined || x.core === l.core)));
		const dl = shownL.slice().sort((a, b) => a.samples - b.samples)[0];
		if (dl) {
			const nrow = await page.$$eval('#diff-table tbody td.name.has-listing', (r) => r.length);
			ok(nrow === shownL.length, 'diff: rows with a listing are marked (' + nrow + ')', nrow);
			const names = await page.$$('#diff-table tbody td.name');
			for (const n of names)
				if (/^local_func_(\d+)/.exec(await n.textContent())[1] === String(dl.local_func)) { await n.click(); break; }
			const h = await page.textContent('#listing-box h3');
			ok(h.includes('local_func_' + dl.local_func), 'diff: a click on a row opens its listing', h);
			const lr = await page.$$eval('#listing-table tbody tr:not(.range)', (r) => r.length);
			ok(lr === dl.insns.length, 'diff: the listing has every instruction (' + dl.insns.length + ')', lr);
		}
	}

	if (events) await checkEvents(page);

	const csps = await page.evaluate(() => window.__csp);
	ok(csps.length === 0, 'no CSP violations', csps.join('; '));
	ok(requests.length === 0, 'no request besides the file itself', requests.join(' '));
	ok(errors.length === 0, 'no console errors or warnings', errors.join(' / '));

	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: args.shot, fullPage: true });
	console.log('shot: ' + path.resolve(args.shot));
	await o.close();
}

main().then(() => process.exit(0), (e) => {
	console.log('FAIL: browser run: ' + (e && e.message ? e.message.split('\n')[0] : e));
	process.exit(1);
});
