// SPDX-License-Identifier: MIT
//
// The HTML report's on-CPU | off-CPU | wall switch in headless Chromium
// (playwright-core, /usr/bin/chromium, no network), for
// tests/e2e/offcpu_html.sh. Expected values come from report --json and
// from perf script (the REF file: "OFF name state ns" lines of
// tests/e2e/offcpu_perf.awk, "ON name ns" / "ONINCL name ns" / "ONTOTAL
// ns" of tests/e2e/offcpu_on_perf.awk), not from the viewer:
//
//   node offcpu.js --page P.html --doc DOC.json --json REPORT.json --ref REF --shot OFF.png
//   node offcpu.js --page P.html --doc DOC.json --no-switch 1
//
// With the switch: each state's table (every function's self and inclusive
// ns, data-ns, and the milliseconds shown) = the JSON's off_cpu.functions
// and, within 0.5% or 20 us, perf script's; wall = on + off as drawn; the
// icicle's root holds the state's total, each drawn off-CPU frame is a
// node of off_cpu_stacks; the wall-clock card = the JSON's processes. The
// screenshot is taken in the off-CPU state. --no-switch: a page without
// off-CPU data has no switch, no wall-clock card and the samples table.
// Prints "ok: ..." / "FAIL: ..." lines and "shot: PATH".
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
// milliseconds as the page is meant to show them: three decimals, 1,234.567
function ms(ns) {
	const t = (ns / 1e6).toFixed(3), i = t.indexOf('.');
	return t.slice(0, i).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + t.slice(i);
}
// the e2e tests' tolerance against perf script (tests/e2e/offcpu.sh)
function near(x, y) {
	const d = Math.abs(x - y);
	return d <= 20000 || d <= 0.005 * y;
}

async function clean(p) {
	const csps = await p.page.evaluate(() => window.__csp);
	ok(csps.length === 0, 'no CSP violations', csps.join('; '));
	ok(p.requests.length === 0, 'no request besides the file itself', p.requests.join(' '));
	ok(p.errors.length === 0, 'no console errors or warnings', p.errors.join(' / '));
}

async function noSwitch(p) {
	ok(await p.page.$('#cpu-switch') === null, 'no on/off-CPU switch without off-CPU data');
	ok(await p.page.$('#wall-clock') === null, 'no wall-clock card');
	ok(await p.page.$('.vtable.time') === null, 'the function table is not in time units');
	const heads = await p.page.$$eval('#fn-table .vhead button', (b) => b.map((x) => x.textContent));
	ok(heads[3] === 'samples', 'the function table shows samples', heads.join(' | '));
	if (doc.stacks) {
		const root = await p.page.$eval('#flame svg rect title', (t) => t.textContent);
		ok(root.startsWith('all samples\n'), 'the icicle is in samples', root.split('\n').join(' / '));
	}
}

// the drawn table: per function its cells
async function tableRows(page) {
	return page.$$eval('#fn-body .vrow', (r) => r.map((x) => ({
		f: Number(x.getAttribute('data-func')), rank: Number(x.children[0].textContent),
		ns: Number(x.children[3].getAttribute('data-ns')), text: x.children[3].textContent,
		incl: Number(x.children[4].getAttribute('data-ns')), itext: x.children[4].textContent })));
}

async function withSwitch(p) {
	const page = p.page;
	const rep = JSON.parse(fs.readFileSync(args.json, 'utf8'));
	const oc = rep.off_cpu, ocs = doc.off_cpu_stacks;
	const core = Array.isArray(doc.cores) ? doc.cores[0] : doc;
	const names = {};
	core.functions.forEach((r) => { names[r[0]] = r[3]; });
	const byFunc = {};
	oc.functions.forEach((f) => { byFunc[f.local_func] = f; });
	// perf script's per function sums
	const ref = { OFF: {}, ON: {}, ONINCL: {}, ONTOTAL: 0 };
	fs.readFileSync(args.ref, 'utf8').split('\n').filter(Boolean).forEach((l) => {
		const w = l.split(' ');
		if (w[0] === 'ONTOTAL') ref.ONTOTAL = Number(w[1]);
		else ref[w[0]][w[1]] = (ref[w[0]][w[1]] || 0) + Number(w[w.length - 1]);
	});

	const btns = await page.$$eval('#cpu-switch button', (b) => b.map((x) => x.getAttribute('data-state') + '=' + x.getAttribute('aria-pressed')));
	ok(btns.join(' ') === 'on=true off=false wall=false', 'the switch: on-CPU | off-CPU | wall, on-CPU first', btns.join(' '));

	// the wall-clock card: one row per process of the JSON
	const procs = await page.$$eval('#wall-table tbody tr', (r) => r.map((x) => Array.from(x.children).map((c) => c.textContent)));
	ok(procs.length === oc.processes.length && oc.processes.every((pr, i) => procs[i][0] === String(pr.pid) &&
		procs[i][1] === ms(pr.wall_ns) && procs[i][2] === ms(pr.on_cpu_ns) && procs[i][3] === ms(pr.off_cpu_ns)),
	'wall-clock card: pid, wall, on-CPU, off-CPU per process = the JSON (' + oc.processes.length + ')',
	JSON.stringify(procs));
	const onAll = oc.processes.reduce((a, x) => a + x.on_cpu_ns, 0);
	ok(near(onAll, ref.ONTOTAL), 'wall-clock card: on-CPU = perf script\'s cpu-clock periods (' + onAll + ' vs ' + ref.ONTOTAL + ')');

	const seen = {};
	for (const k of ['off', 'on', 'wall']) {
		await page.click('#cpu-switch button[data-state="' + k + '"]');
		const head = await page.$$eval('#fn-table .vhead button', (b) => b.map((x) => x.textContent));
		const col = { on: 'on-CPU ms', off: 'off-CPU ms', wall: 'wall ms' }[k];
		ok(head[3] === col && head[4] === 'incl ms', k + ': the table\'s columns are ' + col + ', incl ms', head.join(' | '));
		const rows = await tableRows(page);
		seen[k] = {};
		rows.forEach((r) => { seen[k][r.f] = r; });
		ok(rows.length === core.functions.length, k + ': every function drawn (' + rows.length + ')');
		// the JSON's numbers
		const want = (f) => {
			const j = byFunc[f] || { on_cpu_ns: 0, on_cpu_incl_ns: 0, off_cpu_ns: 0, off_cpu_incl_ns: 0, wall_ns: 0 };
			return k === 'on' ? [j.on_cpu_ns, j.on_cpu_incl_ns] : k === 'off' ? [j.off_cpu_ns, j.off_cpu_incl_ns] :
				[j.wall_ns, j.on_cpu_incl_ns + j.off_cpu_incl_ns];
		};
		const badJ = rows.filter((r) => r.ns !== want(r.f)[0] || r.incl !== want(r.f)[1] ||
			r.text !== ms(r.ns) || r.itext !== ms(r.incl));
		ok(!badJ.length, k + ': each function\'s self and inclusive ns = report --json\'s ' +
			{ on: 'on_cpu_ns, on_cpu_incl_ns', off: 'off_cpu_ns, off_cpu_incl_ns', wall: 'wall_ns, on+off incl' }[k] +
			', shown as ms', badJ.map((r) => names[r.f] + ' ' + r.ns + '/' + r.incl + ' "' + r.text + '" vs ' + want(r.f)).join('; '));
		const sorted = rows.slice().sort((a, b) => a.rank - b.rank);
		ok(sorted.every((r, i) => !i || sorted[i - 1].ns >= r.ns), k + ': ranked by that time');
		// perf script's numbers, per function name
		const perf = (n) => k === 'on' ? ref.ON[n] || 0 : k === 'off' ? ref.OFF[n] || 0 : (ref.ON[n] || 0) + (ref.OFF[n] || 0);
		const badP = rows.filter((r) => !near(r.ns, perf(names[r.f])));
		ok(!badP.length && rows.some((r) => r.ns > 0), k + ': each function\'s self time = perf script\'s (0.5% or 20 us): ' +
			rows.filter((r) => r.ns).map((r) => names[r.f] + ' ' + ms(r.ns) + ' vs ' + ms(perf(names[r.f]))).join(', '),
		badP.map((r) => names[r.f] + ' ' + r.ns + ' vs ' + perf(names[r.f])).join('; '));
		if (k === 'on') {
			const badI = rows.filter((r) => !near(r.incl, ref.ONINCL[names[r.f]] || 0));
			ok(!badI.length, 'on: inclusive on-CPU = perf script\'s', badI.map((r) => names[r.f] + ' ' + r.incl).join('; '));
		}
		if (k === 'wall') {
			const badW = rows.filter((r) => r.ns !== seen.on[r.f].ns + seen.off[r.f].ns ||
				r.incl !== seen.on[r.f].incl + seen.off[r.f].incl);
			ok(!badW.length, 'wall: each function\'s wall = its on-CPU + off-CPU as the page drew them, self and inclusive',
				badW.map((r) => names[r.f]).join(', '));
		}

		// the icicle
		const rects = await page.$$eval('#flame svg rect', (r) => r.map((x) => ({
			y: Number(x.getAttribute('y')), k: x.getAttribute('data-kind'), total: Number(x.getAttribute('data-total')),
			t: x.querySelector('title').textContent })));
		const rootName = { on: 'all on-CPU', off: 'all off-CPU', wall: 'wall (on + off CPU)' }[k];
		const rootNs = { on: ocs.on_cpu_ns, off: ocs.off_cpu_ns, wall: ocs.on_cpu_ns + ocs.off_cpu_ns }[k];
		ok(rects.length > 3 && Math.abs(rects[0].total - rootNs) <= 2 &&
			rects[0].t.startsWith(rootName + '\n' + ms(rects[0].total) + ' ms'),
		k + ': the icicle\'s root holds the ' + k + ' time (' + ms(rootNs) + ' ms)', rects[0] && rects[0].t.split('\n').join(' / '));
		if (k === 'off') {
			const flat = ocs.nodes, depth = flat.map(() => 0);
			flat.forEach((x, i) => { depth[i] = x.parent >= 0 ? depth[x.parent] + 1 : 1; });
			const at = new Set(flat.map((x, i) => depth[i] + '|' + x.name + '|' + x.total));
			const stray = rects.slice(1).filter((r) => !at.has(Math.round(r.y / 18) + '|' + r.t.split('\n')[0] + '|' + r.total));
			ok(!stray.length, 'off: each drawn frame is an off_cpu_stacks node at its depth, with its ns (' + (rects.length - 1) + ')',
				stray.slice(0, 3).map((r) => r.t.split('\n')[0]).join(', '));
			ok(['wasm', 'host', 'state'].every((x) => rects.some((r) => r.k === x)), 'off: wasm, host import and state frames drawn');
			ok(near(ocs.off_cpu_ns, Object.values(ref.OFF).reduce((a, x) => a + x, 0)),
				'off: the stacks\' total = perf script\'s off-CPU time with a wasm frame (' + ocs.off_cpu_ns + ')');
		}
		if (k === 'on')
			ok(near(rects[0].total, ref.ONTOTAL), 'on: the icicle\'s root = perf script\'s cpu-clock periods (' + ref.ONTOTAL + ')');
	}

	await page.click('#cpu-switch button[data-state="off"]');
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: args.shot, fullPage: true });
	console.log('shot: ' + path.resolve(args.shot));
}

async function main() {
	const p = await openPage(pageUrl);
	if (args['no-switch']) await noSwitch(p);
	else await withSwitch(p);
	await clean(p);
	await p.close();
}

main().then(() => process.exit(0), (e) => {
	console.log('FAIL: browser run: ' + (e && e.message ? e.message.split('\n')[0] : e));
	process.exit(1);
});
