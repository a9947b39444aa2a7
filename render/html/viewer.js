/* SPDX-License-Identifier: MIT */
/*
 * aotperf HTML report viewer, inlined into every report by render/html.c.
 * Reads the data document (docs/html-data.md) from the page's JSON block
 * (id "aotperf-data") and draws it with DOM calls only: no HTML parsing of
 * data, no style attributes in markup, no eval (the page's
 * Content-Security-Policy admits nothing but this script and its
 * stylesheet). Sizes and colours set from code go through CSSOM
 * (element.style.x), which that policy allows.
 */
(function () {
	'use strict';

	/* classify/classify.c's classes, in its order (docs/classes.md) */
	var CLASSES = ['frame_load', 'frame_store', 'frame_save', 'vmctx_save', 'vmctx_reload',
		'vmctx_field', 'reg_move', 'zext_move', 'alu', 'lea', 'bounds_check', 'linear_mem',
		'other_mem', 'dispatch', 'call_direct', 'call_indirect', 'tail_call', 'cond_branch',
		'branch', 'trap', 'other', 'data'];
	var ROW = 22;		/* function table row height, px (viewer.css --row) */
	var FLAME_ROW = 18;	/* icicle row height, px */
	var MAX_RECTS = 4000;	/* icicle: more frames than this are not drawn */
	/*
	 * Element ids of the block being drawn: '' for a one-event page and for
	 * the first event's block, 'event<i>-' for the i-th event's (i > 0), so
	 * the first block keeps the one-event page's ids.
	 */
	var idp = '';

	/* ---- small helpers ---- */

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined && text !== null) e.textContent = String(text);
		return e;
	}
	/* append the children, return the parent */
	function add(parent) {
		for (var i = 1; i < arguments.length; i++)
			if (arguments[i]) parent.appendChild(arguments[i]);
		return parent;
	}
	/* append one child and return it */
	function put(parent, child) {
		parent.appendChild(child);
		return child;
	}
	var SVGNS = 'http://www.w3.org/2000/svg';
	function svg(tag, attrs) {
		var e = document.createElementNS(SVGNS, tag);
		for (var k in attrs) e.setAttribute(k, attrs[k]);
		return e;
	}
	function num(n) {
		return (typeof n === 'number' && isFinite(n)) ? n : 0;
	}
	function fmt(n) {
		return Math.round(num(n)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	}
	function pct(a, b, d) {
		return (b > 0 ? (100 * a / b) : 0).toFixed(d === undefined ? 2 : d) + '%';
	}
	/* a share the document holds (percent, 0..100), as the text prints it */
	function share(p, d) {
		return num(p).toFixed(d === undefined ? 2 : d) + '%';
	}
	/* a share the document holds, else computed (documents of other tools' versions) */
	function shareOr(p, a, b, d) {
		return typeof p === 'number' ? share(p, d) : pct(a, b, d);
	}
	/* nanoseconds as milliseconds, three decimals: "1,234.567" */
	function ms(ns) {
		var t = (num(ns) / 1e6).toFixed(3), i = t.indexOf('.');
		return t.slice(0, i).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + t.slice(i);
	}
	function hex(n) {
		return '0x' + num(n).toString(16);
	}
	function bytes(n) {
		n = num(n);
		if (n >= 1e6) return (n / 1e6).toFixed(1) + ' MB';
		if (n >= 1e4) return (n / 1e3).toFixed(1) + ' KB';
		return fmt(n) + ' B';
	}
	function funcName(f) {
		return 'local_func_' + f;
	}
	function label(core, f, name, ncores) {
		var s = (ncores > 1 && core ? core + ':' : '') + funcName(f);
		return name ? s + ' ' + name : s;
	}
	function section(app, id, title) {
		var s = add(el('section'), el('h2', null, title));
		s.id = idp + id;
		app.appendChild(s);
		return s;
	}
	function hashStr(s) {
		var h = 0;
		for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
		return Math.abs(h);
	}

	/* ---- the model: the document, normalised ---- */

	function coreBlocks(doc) {
		if (Array.isArray(doc.cores)) return doc.cores;
		if (doc.top_functions || doc.functions || doc.text_size !== undefined) return [doc];
		return [];
	}

	function buildRows(c, ci) {
		var rows = [], i, r;
		if (Array.isArray(c.functions)) {
			for (i = 0; i < c.functions.length; i++) {
				r = c.functions[i];
				/* report's: [local_func, samples, code_bytes, name, percent_of_run] */
				if (Array.isArray(r))
					rows.push({ core: ci, f: num(r[0]), s: num(r[1]), b: num(r[2]), n: r[3] || '', p: r[4] });
				else if (r)
					rows.push({ core: ci, f: num(r.local_func), s: num(r.samples), b: num(r.code_bytes), n: r.name || '',
						p: r.percent_of_run });
			}
		} else if (Array.isArray(c.top_functions)) {
			for (i = 0; i < c.top_functions.length; i++) {
				r = c.top_functions[i];
				rows.push({ core: ci, f: num(r.local_func), s: num(r.samples), b: num(r.code_bytes), n: r.name || '',
					p: r.percent_of_run });
			}
		}
		for (i = 0; i < rows.length; i++) rowKey(rows[i]);
		return rows;
	}
	function rowKey(r) {
		r.key = (funcName(r.f) + ' ' + r.n).toLowerCase();
		return r;
	}

	/* A stack tree as nested {name, kind, self, total, children} under one root. */
	function stackTree(st, rootName) {
		var roots = [], i, n, nodes;
		if (!st) return null;
		if (Array.isArray(st.nodes)) {
			nodes = st.nodes.map(function (x) {
				return { name: String(x.name), kind: x.kind || 'host', self: num(x.self), total: num(x.total),
					core: x.core, local_func: x.local_func, children: [] };
			});
			for (i = 0; i < nodes.length; i++) {
				n = st.nodes[i].parent;
				if (typeof n === 'number' && n >= 0 && n < i) nodes[n].children.push(nodes[i]);
				else roots.push(nodes[i]);
			}
		} else if (st.name !== undefined) {
			var copy = function (x) {
				return { name: String(x.name), kind: x.kind || 'host', self: num(x.self), total: num(x.total),
					core: x.core, local_func: x.local_func,
					children: (x.children || []).map(copy) };
			};
			var top = copy(st);
			if (top.kind === 'root') return top;
			roots.push(top);
		}
		if (!roots.length) return null;
		var total = 0;
		for (i = 0; i < roots.length; i++) total += roots[i].total;
		return { name: rootName || 'all samples', kind: 'root', self: 0, total: total, children: roots };
	}

	/* ---- the wall-clock view: on-CPU, off-CPU and wall time (docs/html-data.md, "Off-CPU time") ---- */

	/* a copy of a tree with every amount times k */
	function scaleTree(n, k, rootName) {
		return { name: rootName || n.name, kind: n.kind, self: n.self * k, total: n.total * k,
			core: n.core, local_func: n.local_func,
			children: n.children.map(function (c) { return scaleTree(c, k); }) };
	}

	/* add the nodes of src into the list dst (copies), frames of one name and kind merged */
	function mergeInto(dst, src) {
		var at = {};
		dst.forEach(function (d) { at[d.kind + '\u0000' + d.name] = d; });
		src.forEach(function (n) {
			var key = n.kind + '\u0000' + n.name, d = at[key];
			if (!d) {
				d = at[key] = { name: n.name, kind: n.kind, self: 0, total: 0, core: n.core,
					local_func: n.local_func, children: [] };
				dst.push(d);
			}
			d.self += n.self;
			d.total += n.total;
			mergeInto(d.children, n.children);
		});
	}

	/* wall: the on- and off-CPU trees in one, as flamegraph.pl draws report --folded --cpu-state both */
	function mergeTrees(a, b, rootName) {
		var root = { name: rootName, kind: 'root', self: 0, total: 0, children: [] };
		[a, b].forEach(function (t) {
			if (!t) return;
			root.total += t.total;
			mergeInto(root.children, t.children);
		});
		return root.total > 0 ? root : null;
	}

	/*
	 * The document's off_cpu (report --json's) with the page's off-CPU
	 * members: per function row r.t = [on, on incl, off, off incl] in ns,
	 * the processes, and the icicle's trees in ns: on-CPU (the samples'
	 * tree x the mean on-CPU period, as --folded --cpu-state both), off-CPU,
	 * wall. null without off_cpu: the page is drawn in samples only.
	 */
	function offCpu(doc, m) {
		var oc = doc.off_cpu, x, ocs = doc.off_cpu_stacks || {};
		if (!oc || typeof oc !== 'object' || Array.isArray(oc)) return null;
		x = { procs: Array.isArray(oc.processes) ? oc.processes : [], source: oc.source,
			event: oc.on_cpu_event, on: 0, off: 0 };
		x.procs.forEach(function (p) { x.on += num(p.on_cpu_ns); x.off += num(p.off_cpu_ns); });
		m.cores.forEach(function (c) {
			var by = {};
			c.rows.forEach(function (r) { r.t = [0, 0, 0, 0]; by[r.f] = r; });
			var set = function (f, t, name) {
				if (!by[f]) c.rows.push(by[f] = rowKey({ core: c.i, f: f, s: 0, b: 0, n: name || '' }));
				by[f].t = t;
			};
			if (Array.isArray(c.block.off_cpu_functions)) {
				c.block.off_cpu_functions.forEach(function (a) {
					if (Array.isArray(a)) set(num(a[0]), [num(a[1]), num(a[2]), num(a[3]), num(a[4])]);
				});
			} else {
				/* a plain report --json: its off_cpu.functions (the --top ones) */
				(oc.functions || []).forEach(function (f) {
					if (m.coreOf(f.core) === c.i)
						set(num(f.local_func), [num(f.on_cpu_ns), num(f.on_cpu_incl_ns), num(f.off_cpu_ns),
							num(f.off_cpu_incl_ns)], f.name);
				});
			}
		});
		var samples = m.tree ? num(doc.stacks && doc.stacks.samples) || m.tree.total : 0;
		var on = num(ocs.on_cpu_ns) || x.on;
		x.trees = {
			on: samples ? scaleTree(m.tree, on / samples, 'all on-CPU') : null,
			off: stackTree(doc.off_cpu_stacks, 'all off-CPU')
		};
		x.trees.wall = mergeTrees(x.trees.on, x.trees.off, 'wall (on + off CPU)');
		x.leftOut = { on: num(doc.stacks && doc.stacks.left_out), off: num(ocs.left_out) };
		x.leftOut.wall = x.leftOut.on + x.leftOut.off;
		return x;
	}

	/* the switch's states: the table's column, the totals' key, what the numbers are */
	var MODES = [
		{ key: 'on', title: 'on-CPU', col: 'on-CPU ms', share: '%on', what: 'on-CPU time' },
		{ key: 'off', title: 'off-CPU', col: 'off-CPU ms', share: '%off', what: 'off-CPU time' },
		{ key: 'wall', title: 'wall', col: 'wall ms', share: '%wall', what: 'wall time (on + off CPU)' }
	];
	function modeOf(k) {
		for (var i = 0; i < MODES.length; i++) if (MODES[i].key === k) return MODES[i];
		return MODES[0];
	}
	/* a row's self and inclusive ns in a state */
	function timeOf(r, k) {
		var t = r.t || [0, 0, 0, 0];
		if (k === 'on') return [t[0], t[1]];
		if (k === 'off') return [t[2], t[3]];
		return [t[0] + t[2], t[1] + t[3]];
	}
	function modeTotal(oc, k) {
		return k === 'on' ? oc.on : k === 'off' ? oc.off : oc.on + oc.off;
	}

	function renderSwitch(app, m, onMode) {
		var oc = m.oc, bar = put(app, el('div', 'cpu-switch'));
		bar.id = idp + 'cpu-switch';
		bar.setAttribute('role', 'group');
		bar.setAttribute('aria-label', 'time shown in the stacks and the function table');
		add(bar, el('span', 'lbl', 'Time:'));
		var btns = MODES.map(function (md) {
			var b = put(bar, el('button', null, md.title));
			b.type = 'button';
			b.setAttribute('data-state', md.key);
			b.addEventListener('click', function () { set(md.key); });
			return b;
		});
		var note = put(bar, el('span', 'note'));
		var notes = {
			on: 'on-CPU: ' + (oc.event || 'the event\u2019s') + ' samples \u00d7 period, each to the innermost wasm function on its stack (a host import that burns CPU counts for its caller)',
			off: 'off-CPU: time switched out (' + (oc.source === 'offcpu-time' ? 'offcpu-time samples' : 'switch records') +
				'), each wait to the innermost wasm function on its stack',
			wall: 'wall: on-CPU + off-CPU time'
		};
		function set(k) {
			btns.forEach(function (b) {
				var on = b.getAttribute('data-state') === k;
				b.classList.toggle('on', on);
				b.setAttribute('aria-pressed', on ? 'true' : 'false');
			});
			note.textContent = notes[k];
			bar.setAttribute('data-state', k);
			onMode(k);
		}
		return set;
	}

	/* per process: wall, on and off CPU, the off-CPU time by state */
	function renderWallCard(cards, m) {
		var card = put(cards, el('div', 'card wide'));
		card.id = idp + 'wall-clock';
		add(card, el('h3', null, 'Wall clock'));
		var t = put(card, el('table', 'ltable'));
		t.id = idp + 'wall-table';
		var hr = put(put(t, el('thead')), el('tr'));
		['pid', 'wall ms', 'on-CPU ms', 'off-CPU ms', 'S', 'D', 'R', 'other', 'in wasm', ''].forEach(function (h, k) {
			add(hr, el('th', k && k < 9 ? 'num' : null, h));
		});
		var tb = put(t, el('tbody'));
		m.oc.procs.forEach(function (p) {
			var st = p.off_cpu_by_state || {}, on = num(p.on_cpu_ns), off = num(p.off_cpu_ns);
			var tr = put(tb, el('tr'));
			tr.setAttribute('data-pid', String(num(p.pid)));
			var bar = el('td', 'wbar'), tk = put(bar, el('div', 'track'));
			[['on', on], ['off', off]].forEach(function (x) {
				var f = put(tk, el('div', 'fill ' + x[0]));
				f.style.width = (on + off ? 100 * x[1] / (on + off) : 0).toFixed(2) + '%';
				f.title = x[0] + '-CPU ' + ms(x[1]) + ' ms (' + pct(x[1], on + off, 1) + ')';
			});
			add(tr, el('td', 'mono', String(num(p.pid))), el('td', 'num', ms(p.wall_ns)), el('td', 'num', ms(on)),
				el('td', 'num', ms(off)), el('td', 'num', ms(st.S)), el('td', 'num', ms(st.D)), el('td', 'num', ms(st.R)),
				el('td', 'num', ms(st.other)), el('td', 'num', ms(p.off_cpu_wasm_ns)), bar);
		});
		add(card, el('p', 'note', 'Off CPU by state: S sleeping, D uninterruptible, R preempted; \u201cin wasm\u201d: ' +
			'waits with a wasm function on the stack. The bar: on-CPU (blue) and off-CPU (grey) shares.'));
	}

	function normalise(doc) {
		var m = { doc: doc, cores: [], listings: {}, classified: [], byLabel: {} };
		var blocks = coreBlocks(doc), i;
		for (i = 0; i < blocks.length; i++) {
			var c = blocks[i];
			var lbl = c.core || c.cwasm || ('core ' + i);
			m.cores.push({ i: i, label: lbl, block: c, rows: buildRows(c, i) });
			m.byLabel[lbl] = i;
		}
		m.total = num(doc.total_samples);
		if (!m.total) for (i = 0; i < blocks.length; i++) m.total = Math.max(m.total, num(blocks[i].total_samples));
		var coreOf = function (lbl) {
			if (lbl !== undefined && lbl !== null && m.byLabel[lbl] !== undefined) return m.byLabel[lbl];
			return m.cores.length === 1 ? 0 : -1;
		};
		m.coreOf = coreOf;
		(doc.listings || []).forEach(function (l) {
			var ci = coreOf(l.core);
			if (ci >= 0) m.listings[ci + ':' + num(l.local_func)] = l;
		});
		var seen = {};
		var cfs = [];
		if (Array.isArray(doc.classified_functions)) cfs = cfs.concat(doc.classified_functions);
		else if (doc.classified_function) cfs.push(doc.classified_function);
		blocks.forEach(function (c) {
			if (Array.isArray(c.classified_functions) && c !== doc) cfs = cfs.concat(c.classified_functions);
		});
		cfs.forEach(function (cf) {
			var ci = coreOf(cf.core), key = ci + ':' + num(cf.local_func);
			if (!seen[key]) { seen[key] = 1; m.classified.push({ core: ci, cf: cf }); }
		});
		m.tree = stackTree(doc.stacks);
		m.oc = offCpu(doc, m);
		m.diff = doc.diff || null;
		return m;
	}

	/* ---- summary ---- */

	function kv(dl, k, v) {
		add(dl, el('dt', null, k), el('dd', null, v));
	}

	function renderSummary(app, m) {
		var doc = m.doc, s = section(app, 'summary', 'Run');
		/* the words of the text report (profile__cut_words), above everything it qualifies */
		if (doc.truncated) {
			var cut = put(s, el('p', 'warn cut', 'CUT SHORT: read ' + fmt(doc.bytes_read) + ' of ' +
				fmt(doc.bytes_expected) + ' data bytes (' + pct(num(doc.bytes_read), num(doc.bytes_expected)) +
				'): the records after the cut are missing; not authoritative.'));
			cut.id = 'cut-short';
		}
		var cards = put(s, el('div', 'cards'));
		var run = put(cards, el('div', 'card'));
		add(run, el('h3', null, 'Recording'));
		var dl = put(run, el('dl', 'kv'));
		kv(dl, 'samples', fmt(m.total));
		var att = num(doc.attributed_samples);
		if (doc.attributed_samples === undefined)
			m.cores.forEach(function (c) { att += num(c.block.attributed_samples); });
		kv(dl, 'in wasm code', fmt(att) + ' (' + shareOr(doc.attribution_coverage_pct, att, m.total) + ' of run)');
		var ow = doc.outside_wasm;
		if (ow) kv(dl, 'outside wasm', fmt(ow.samples) + ' (' + share(ow.percent_of_run) + ' of run)');
		if (doc.perf) kv(dl, 'perf.data', doc.perf);
		var se = doc.sampled_event;
		if (doc.event || (se && se.name))
			kv(dl, 'event', (doc.event || se.name) + (se && se.frequency ? ', ' + fmt(se.frequency) + ' Hz' :
				se && se.period ? ', every ' + fmt(se.period) : ''));
		kv(dl, 'cores', String(m.cores.length));
		m.cores.forEach(function (c) {
			var b = c.block, card = put(cards, el('div', 'card'));
			card.id = idp + 'core-' + c.i;
			add(card, el('h3', null, c.label));
			var d = put(card, el('dl', 'kv'));
			if (b.cwasm && b.cwasm !== c.label) kv(d, 'file', b.cwasm);
			kv(d, 'samples', fmt(b.attributed_samples) + ' (' +
				shareOr(b.attribution_coverage_pct, num(b.attributed_samples), m.total) + ' of run)');
			kv(d, 'functions', fmt(b.function_count !== undefined ? b.function_count : c.rows.length));
			/* report's artifact_target (decoded as: the target's, or --arch); diff's target */
			var tg = b.artifact_target ? { arch: b.artifact_target.decoded_as, abi: b.artifact_target.abi,
				format: b.artifact_target.format } : b.target;
			if (tg && tg.arch) kv(d, 'target', [tg.arch, tg.abi, tg.format].filter(Boolean).join(', '));
			if (b.text_size !== undefined) kv(d, 'text', bytes(b.text_size));
			var tb = b.text_base_hex || (typeof b.text_base === 'number' ? hex(b.text_base) : b.text_base);
			if (tb) kv(d, 'mapped at', tb + (b.mapping ? ' +' + hex(b.mapping.size) : ''));
			/* the words of the text report (render__mapping_word) */
			if (b.mapping && (b.mapping.how || b.mapping.count !== undefined))
				kv(d, 'mapping', [b.mapping.how, b.mapping.count !== undefined ? b.mapping.count + ' mapping(s)' : null]
					.filter(function (x) { return x; }).join(', '));
			if (b.cwasm_sha256) kv(d, 'sha256', String(b.cwasm_sha256).slice(0, 16) + '\u2026');
		});
		if (m.oc) renderWallCard(cards, m);
		var warnings = [].concat(doc.warnings || []);
		m.cores.forEach(function (c) { if (c.block !== doc) warnings = warnings.concat(c.block.warnings || []); });
		if (warnings.length) {
			var ul = put(s, el('ul', 'warn'));
			warnings.forEach(function (w) { add(ul, el('li', null, typeof w === 'string' ? w : JSON.stringify(w))); });
		}
	}

	/* ---- the run's lever table (report --levers, docs/levers.md) ---- */

	function renderLevers(app, m, onPick) {
		var lv = m.doc.levers, s = section(app, 'levers', 'Which lever pays for the run');
		var modelled = function (r) { return r.payoff_pct !== null && r.payoff_pct !== undefined; };
		add(s, el('p', 'note', lv['static'] ? 'No recording: the ' + lv.functions.length +
			' largest functions with loops, every loop modelled; each lever\u2019s mean saving per modelled loop.' :
			lv.functions.length + ' functions hold ' + pct(num(lv.function_samples), num(lv.wasm_samples)) +
			' of the wasm samples; their loops with ' + num(lv.loop_min_pct) + '% of their function or more are ' +
			'modelled: ' + num(lv.modelled_pct).toFixed(1) + '% of the run (' + num(lv.unmodelled_pct).toFixed(1) +
			'% not modelled). Model: ' + (lv.tool ? lv.tool + ' -mcpu=' + lv.mcpu : lv.model_note || 'none') + '.'));
		var rows = lv.rows || [], max = 0;
		rows.forEach(function (r) { if (modelled(r)) max = Math.max(max, num(r.payoff_hi_pct) + num(r.tolerance_pct)); });
		/* the chart: each lever's predicted payoff, its tolerance as a lighter band */
		var chart = put(s, el('div', 'bars leverbars'));
		chart.id = idp + 'levers-chart';
		rows.forEach(function (r) {
			var lb = el('span', 'lbl mono nolink', r.lever), tr = el('div', 'track'), txt;
			tr.setAttribute('data-lever', r.lever);
			if (modelled(r) && max > 0) {
				var p = Math.max(0, num(r.payoff_pct)), hi = Math.max(p, num(r.payoff_hi_pct));
				var f = put(tr, el('div', 'fill'));
				f.style.width = (100 * p / max).toFixed(2) + '%';
				if (hi > p) { var b = put(tr, el('div', 'fill bound')); b.style.width = (100 * (hi - p) / max).toFixed(2) + '%'; }
				var t = put(tr, el('div', 'fill tol'));
				t.style.width = (100 * Math.min(num(r.tolerance_pct), max) / max).toFixed(2) + '%';
				txt = num(r.payoff_pct).toFixed(1) + '%' + (hi > p + 0.05 ? '..' + hi.toFixed(1) + '%' : '') +
					' \u00b1' + num(r.tolerance_pct).toFixed(1);
			} else {
				txt = num(r.removed) ? 'not modelled' : '-';
			}
			add(chart, lb, tr, el('span', 'num', txt));
		});
		var t = put(s, el('table', 'ltable'));
		t.id = idp + 'levers-table';
		var hr = put(put(t, el('thead')), el('tr'));
		['lever', 'functions', 'instructions', 'samples on them', '%run',
			lv['static'] ? 'mean loop saving' : 'predicted run payoff', 'tolerance'].forEach(function (h, k) {
			add(hr, el('th', k ? 'num' : null, h));
		});
		var tb = put(t, el('tbody'));
		rows.forEach(function (r) {
			var tr = put(tb, el('tr', num(r.removed) ? null : 'none'));
			tr.setAttribute('data-lever', r.lever);
			add(tr, el('td', 'mono', r.lever), el('td', 'num', String(num(r.functions))),
				el('td', 'num', fmt(r.removed)), el('td', 'num', fmt(r.samples)),
				el('td', 'num', num(r.sample_pct).toFixed(1) + '%'),
				el('td', 'num' + (modelled(r) && num(r.payoff_pct) >= 2 ? ' pays' : ''),
					modelled(r) ? num(r.payoff_pct).toFixed(1) + '%' : num(r.removed) ? 'not modelled' : '-'),
				el('td', 'num', modelled(r) ? '\u00b1' + num(r.tolerance_pct).toFixed(1) : '-'));
		});
		rows.forEach(function (r) {
			if (r.not_modelled) add(s, el('p', 'note', r.lever + ': not modelled in ' + num(r.unmodelled_loops) +
				' loop(s), ' + num(r.unmodelled_pct).toFixed(1) + '% of the run: ' + r.not_modelled));
		});
		var v = put(s, el('p', 'meta', 'verdict: ' + lv.verdict));
		v.id = idp + 'levers-verdict';
		var fl = put(s, el('p', 'note', 'Functions of the table: '));
		(lv.functions || []).forEach(function (f, i) {
			var ci = m.coreOf(f.core), a = el('a', 'mono', label(ci >= 0 ? m.cores[ci].label : '', num(f.local_func), f.name,
				m.cores.length));
			a.href = '#';
			a.addEventListener('click', function (e) { e.preventDefault(); onPick(ci, num(f.local_func)); });
			add(fl, i ? document.createTextNode(', ') : null, a,
				document.createTextNode(' (' + pct(num(f.samples), m.total) + ', ' + num(f.loops_modelled) + ' loop(s))'));
		});
	}

	/* ---- flame graph (icicle) or self-sample bars ---- */

	function frameFill(n) {
		var h = hashStr(n.name);
		if (n.kind === 'root') return '#9aa5b1';
		if (n.kind === 'wasm') return 'hsl(' + (200 + h % 25) + ',62%,' + (58 + h % 12) + '%)';
		if (n.kind === 'kernel') return 'hsl(' + (h % 12) + ',68%,' + (60 + h % 10) + '%)';
		if (n.kind === 'unknown') return '#c3c9d0';
		if (n.kind === 'state') return 'hsl(' + (262 + h % 16) + ',32%,' + (66 + h % 10) + '%)';
		return 'hsl(' + (28 + h % 18) + ',85%,' + (56 + h % 12) + '%)';
	}

	/*
	 * The icicle of m.tree in samples; set(tree, unit, leftOut) draws
	 * another tree (the wall-clock view's, unit its MODES entry: ns shown
	 * as ms) in its place.
	 */
	function renderFlame(app, m, onPick) {
		var s = section(app, 'flame', 'Call stacks');
		var head = put(s, el('div'));
		var box = put(s, el('div', 'flame'));
		var info = put(s, el('p', 'flame-info'));
		var tree = m.tree, unit = null, leftOut = m.doc.stacks ? num(m.doc.stacks.left_out) : 0;
		var zoom = tree;

		function amount(v) {
			return unit ? ms(v) + ' ms' : fmt(v) + ' samples';
		}
		function describe(n, sep) {
			return n.name + sep + amount(n.total) + ' (' + pct(n.total, tree.total) + (sep === '\n' ? ' of all' : '') +
				'), self ' + (unit ? ms(n.self) + ' ms' : fmt(n.self));
		}
		function legend() {
			head.textContent = '';
			var kinds = add(el('p', 'note kinds'), document.createTextNode('Icicle: callers above callees, width = ' +
				(unit ? unit.what : 'samples') + '; click a frame to zoom, the top bar to zoom out.'));
			var kindList = [['wasm', 'wasm'], ['host', 'host'], ['kernel', 'kernel']], seen = {};
			if (tree) (function has(n) {
				seen[n.kind] = 1;
				n.children.forEach(has);
			})(tree);
			/* a time view lists the kinds it draws (off-CPU stacks keep no kernel frames) */
			if (unit) kindList = kindList.filter(function (k) { return seen[k[0]]; });
			/* a -g chain that skipped a caller (docs/callgraph.md) */
			if (seen.unknown) kindList.push(['unknown', 'caller unknown']);
			if (seen.state) kindList.push(['state', 'off-CPU state: [S] sleeping, [D] uninterruptible, [R] preempted']);
			kindList.forEach(function (k) {
				add(kinds, el('span', 'k k-' + k[0]), document.createTextNode(k[1]));
			});
			head.appendChild(kinds);
			if (unit && unit.key !== 'on')
				add(head, el('p', 'note', 'Off-CPU stacks begin at their outermost wasm frame (the host frames above it are not kept)' +
					(unit.key === 'wall' ? ': a wasm entry shows under its host caller for its on-CPU time and as a root for its off-CPU time.' : '.')));
			if (leftOut)
				add(head, el('p', 'note', fmt(leftOut) + ' frames with the fewest ' + (unit ? 'nanoseconds' : 'samples') +
					' are left out of this document.'));
		}
		function depthOf(n) {
			var d = 0;
			(n.children || []).forEach(function (c) { d = Math.max(d, depthOf(c)); });
			return d + 1;
		}
		function pathTo(target) {
			var out = [];
			(function walk(n, acc) {
				if (n === target) { out = acc.concat([n]); return true; }
				for (var i = 0; i < n.children.length; i++)
					if (walk(n.children[i], acc.concat([n]))) return true;
				return false;
			})(tree, []);
			return out;
		}
		function draw() {
			box.textContent = '';
			if (!tree) {
				add(box, el('p', 'empty', 'No stacks with a wasm frame in this view.'));
				return;
			}
			var W = Math.max(box.clientWidth || 0, 600), path = pathTo(zoom);
			var depth = path.length - 1 + depthOf(zoom), rects = 0;
			var g = svg('svg', { width: W, height: depth * FLAME_ROW, role: 'img' });
			g.setAttribute('aria-label', 'call-stack icicle');
			function rect(n, x, y, w, dim) {
				var r = svg('rect', { x: x.toFixed(1), y: y, width: Math.max(w - 0.5, 0.5).toFixed(1),
					height: FLAME_ROW - 1, fill: frameFill(n) });
				r.setAttribute('data-kind', n.kind);
				r.setAttribute('data-total', String(Math.round(n.total)));
				if (dim) r.setAttribute('class', 'dim');
				var t = svg('title', {});
				t.textContent = describe(n, '\n');
				r.appendChild(t);
				r.addEventListener('click', function () {
					zoom = (n === zoom && n !== tree) ? (path[path.length - 2] || tree) : n;
					draw();
					info.textContent = describe(n, ': ');
					if (n.kind === 'wasm' && n.local_func !== undefined) onPick(m.coreOf(n.core), num(n.local_func));
				});
				g.appendChild(r);
				rects++;
				if (w > 28) {
					var chars = Math.floor((w - 6) / 6.6), txt = n.name;
					/* a narrow wasm frame shows its wasm name: [modM:]local_func_N:NAME */
					var wn = n.kind === 'wasm' ? /^(?:mod\d+:)?local_func_\d+[: ](.+)$/.exec(txt) : null;
					if (txt.length > chars && wn) txt = wn[1];
					if (txt.length > chars) txt = txt.slice(0, Math.max(chars - 1, 1)) + '\u2026';
					var tx = svg('text', { x: (x + 3).toFixed(1), y: y + FLAME_ROW - 5 });
					tx.textContent = txt;
					g.appendChild(tx);
				}
			}
			/* ancestors of the zoomed frame: full width, dimmed */
			for (var i = 0; i < path.length - 1; i++) rect(path[i], 0, i * FLAME_ROW, W, true);
			(function walk(n, x, y, w) {
				if (rects >= MAX_RECTS || w < 0.6) return;
				rect(n, x, y, w, false);
				var cx = x, tot = n.total || 1;
				n.children.slice().sort(function (a, b) { return b.total - a.total; }).forEach(function (c) {
					var cw = w * c.total / tot;
					walk(c, cx, y + FLAME_ROW, cw);
					cx += cw;
				});
			})(zoom, 0, (path.length - 1) * FLAME_ROW, W);
			box.appendChild(g);
		}
		legend();
		draw();
		var timer = 0;
		window.addEventListener('resize', function () {
			clearTimeout(timer);
			timer = setTimeout(draw, 150);
		});
		return {
			set: function (t, u, lo) {
				tree = zoom = t;
				unit = u;
				leftOut = lo;
				info.textContent = '';
				legend();
				draw();
			}
		};
	}

	/* the samples outside wasm (doc.outside_wasm, the report's rows) as chart rows: kind host or kernel */
	function hostRows(doc) {
		var fr = doc.outside_wasm && Array.isArray(doc.outside_wasm.rows) ? doc.outside_wasm.rows : [];
		return fr.map(function (h) {
			var dso = String(h.dso || '[unknown]');
			var kernel = dso === '[kernel.kallsyms]' || (/^\[.*\]$/.test(dso) && dso !== '[unknown]' && dso !== '[vdso]' && !/^\[JIT\]/.test(dso));
			return { host: true, kind: kernel ? 'kernel' : 'host', s: num(h.samples), p: h.percent_of_run,
				text: h.symbol + '  ' + dso.replace(/^.*\//, '') , title: h.symbol + ' in ' + dso };
		});
	}

	function renderSelfChart(app, m, onPick) {
		var s = section(app, 'flame', 'Self samples');
		var hosts = hostRows(m.doc);
		add(s, el('p', 'note', 'The hottest functions by self samples (this document has no call stacks)' +
			(hosts.length ? ': wasm functions, and outside wasm the host code and the kernel as perf names them.' : '.')));
		if (hosts.length) {
			var kinds = el('p', 'note kinds');
			[['wasm', 'wasm'], ['host', 'host'], ['kernel', 'kernel']].forEach(function (k) {
				add(kinds, el('span', 'k k-' + k[0]), document.createTextNode(k[1]));
			});
			s.appendChild(kinds);
		}
		var all = [];
		m.cores.forEach(function (c) { all = all.concat(c.rows); });
		all = all.filter(function (r) { return r.s > 0; }).concat(hosts.filter(function (r) { return r.s > 0; }))
			.sort(function (a, b) { return b.s - a.s || (a.host ? 1 : 0) - (b.host ? 1 : 0) || a.f - b.f; }).slice(0, 25);
		if (!all.length) { add(s, el('p', 'empty', 'No samples.')); return; }
		var grid = put(s, el('div', 'bars selfbars'));
		var max = all[0].s;
		all.forEach(function (r) {
			var lb, tr = el('div', 'track'), f;
			if (r.host) {
				lb = el('span', 'lbl mono nolink', r.text);
				lb.title = r.title;
				f = put(tr, el('div', 'fill ' + r.kind));
			} else {
				lb = el('span', 'lbl mono', label(m.cores[r.core].label, r.f, r.n, m.cores.length));
				lb.title = lb.textContent;
				lb.addEventListener('click', function () { onPick(r.core, r.f); });
				f = put(tr, el('div', 'fill'));
			}
			f.style.width = (100 * r.s / max).toFixed(2) + '%';
			add(grid, lb, tr, el('span', 'num', fmt(r.s) + '  ' + shareOr(r.p, r.s, m.total)));
		});
	}

	/* ---- class mix ---- */

	/* shares: the document's percent of the function per class, when it has them */
	function mixBar(counts, total, shares) {
		var bar = el('div', 'mix');
		CLASSES.forEach(function (c) {
			var v = num(counts[c]), p = shares && typeof shares[c] === 'number' ? shares[c] : null;
			if (!v || !total) return;
			var seg = el('div', 'seg c-' + c);
			seg.style.width = (p === null ? 100 * v / total : p).toFixed(3) + '%';
			seg.title = c + ': ' + fmt(v) + ' (' + (p === null ? pct(v, total, 1) : share(p, 1)) + ')';
			seg.setAttribute('data-class', c);
			bar.appendChild(seg);
		});
		return bar;
	}

	function legend(present) {
		var lg = el('div', 'legend');
		CLASSES.forEach(function (c) {
			if (present && !present[c]) return;
			add(lg, add(el('span'), el('span', 'chip c-' + c), document.createTextNode(c)));
		});
		return lg;
	}

	/* class samples of a classified function (or static counts when it has no samples) */
	function cfCounts(cf) {
		var counts = {}, shares = {}, total = 0, basis = cf.levers && cf.levers.basis === 'static' ? 'static' : 'samples';
		var classes = cf.classes || {};
		if (!cf.levers) {
			CLASSES.forEach(function (c) { if (classes[c]) total += num(classes[c].samples); });
			if (!total) basis = 'static';
			total = 0;
		}
		var sharesOk = basis === 'samples';
		CLASSES.forEach(function (c) {
			if (!classes[c]) return;
			var v = basis === 'samples' ? num(classes[c].samples) : num(classes[c].static_instructions);
			counts[c] = v;
			total += v;
			shares[c] = classes[c].percent_of_function;
			/* without a recording (samples null) the document's shares are of the instructions */
			if (classes[c].samples === null) sharesOk = true;
		});
		return { counts: counts, total: total, basis: basis, shares: sharesOk ? shares : null };
	}

	function listingCounts(l) {
		var counts = {}, total = 0;
		(l.insns || []).forEach(function (x) { counts[x['class']] = num(counts[x['class']]) + num(x.samples); total += num(x.samples); });
		return { counts: counts, total: total, basis: 'samples' };
	}

	function renderClassMix(app, m, onPick) {
		var items = m.classified.map(function (x) {
			var c = cfCounts(x.cf);
			return { core: x.core, f: num(x.cf.local_func), name: x.cf.name, c: c,
				verdict: x.cf.levers && (x.cf.levers.no_verdict ? 'no verdict' : x.cf.levers.verdict),
				samples: num(x.cf.samples) };
		});
		var have = {};
		items.forEach(function (x) { have[x.core + ':' + x.f] = 1; });
		Object.keys(m.listings).forEach(function (k) {
			if (have[k]) return;
			var l = m.listings[k], c = listingCounts(l);
			if (c.total) items.push({ core: m.coreOf(l.core), f: num(l.local_func), name: l.name, c: c, samples: c.total });
		});
		if (!items.length) return;
		items.sort(function (a, b) { return b.samples - a.samples; });
		var s = section(app, 'classmix', 'Instruction classes of the hot functions');
		add(s, el('p', 'note', 'Share of each function\u2019s samples by instruction class (docs/classes.md).'));
		var grid = put(s, el('div', 'bars mixbars'));
		var present = {};
		items.forEach(function (x) {
			var lb = el('span', 'lbl mono', label(x.core >= 0 ? m.cores[x.core].label : '', x.f, x.name, m.cores.length));
			lb.title = lb.textContent;
			lb.addEventListener('click', function () { onPick(x.core, x.f); });
			Object.keys(x.c.counts).forEach(function (c) { if (x.c.counts[c]) present[c] = 1; });
			add(grid, lb, mixBar(x.c.counts, x.c.total, x.c.shares),
				el('span', 'num', fmt(x.samples) + (x.c.basis === 'static' ? ' (static)' : '') + (x.verdict ? '  ' + x.verdict : '')));
		});
		s.appendChild(legend(present));
	}

	/* ---- function table: sorted, filtered, only the visible rows in the DOM ---- */

	var COLS = [
		{ key: 'rank', title: '#', num: true },
		{ key: 'f', title: 'function' },
		{ key: 'n', title: 'wasm name' },
		{ key: 's', title: 'samples', num: true },
		{ key: 'p', title: '%run', num: true },
		{ key: 'b', title: 'bytes', num: true },
		{ key: 'h', title: 'heat' }
	];
	/* with off-CPU data: self and inclusive time of the switch's state (setMode) */
	var TIME_COLS = [
		{ key: 'rank', title: '#', num: true },
		{ key: 'f', title: 'function' },
		{ key: 'n', title: 'wasm name' },
		{ key: 'v', title: 'on-CPU ms', num: true },
		{ key: 'vi', title: 'incl ms', num: true },
		{ key: 'p', title: '%on', num: true },
		{ key: 'b', title: 'bytes', num: true },
		{ key: 'h', title: 'heat' }
	];

	function renderTable(app, m, state) {
		var s = section(app, 'functions', 'Functions');
		var bar = put(s, el('div', 'toolbar'));
		var coreSel = null;
		if (m.cores.length > 1) {
			coreSel = el('select');
			coreSel.id = idp + 'fn-core';
			m.cores.forEach(function (c) {
				var o = el('option', null, c.label + ' (' + fmt(c.rows.length) + ')');
				o.value = String(c.i);
				coreSel.appendChild(o);
			});
			bar.appendChild(coreSel);
		}
		var input = el('input');
		input.type = 'search';
		input.id = idp + 'fn-filter';
		input.placeholder = 'filter by name or number';
		input.setAttribute('aria-label', 'filter functions');
		var count = el('span', 'meta');
		count.id = idp + 'fn-count';
		add(bar, input, count);
		var table = put(s, el('div', 'vtable' + (m.oc ? ' time' : '')));
		table.id = idp + 'fn-table';
		var head = put(table, el('div', 'vhead'));
		var body = put(table, el('div', 'vbody'));
		body.id = idp + 'fn-body';
		var spacer = put(body, el('div', 'vspacer'));
		var core = m.cores.length ? 0 : -1, rows = [], view = [], max = 1;
		/* with off-CPU data the table shows the switch's time (r.v, r.vi), else samples (r.s) */
		var time = !!m.oc, mode = 'on', total = time ? m.oc.on : m.total;
		var sort = { key: time ? 'v' : 's', asc: false }, buttons = [];
		var val = function (r) { return time ? r.v : r.s; };

		(time ? TIME_COLS : COLS).forEach(function (c) {
			var b = el('button', c.num ? 'num' : null, c.title);
			b.type = 'button';
			b.setAttribute('data-key', c.key);
			if (c.key !== 'h') b.addEventListener('click', function () {
				if (sort.key === c.key) sort.asc = !sort.asc;
				else { sort.key = c.key; sort.asc = c.key === 'f' || c.key === 'n'; }
				apply();
			});
			buttons.push(b);
			head.appendChild(b);
		});

		function setCore(ci) {
			core = ci;
			rows = ci >= 0 ? m.cores[ci].rows : [];
			if (time) rows.forEach(function (r) { var t = timeOf(r, mode); r.v = t[0]; r.vi = t[1]; });
			var byS = rows.slice().sort(function (a, b) { return val(b) - val(a) || a.f - b.f; });
			for (var i = 0; i < byS.length; i++) byS[i].rank = i + 1;
			max = byS.length && val(byS[0]) ? val(byS[0]) : 1;
			/* a short table is not padded out to the full height */
			body.style.height = Math.min(440, Math.max(rows.length, 3) * ROW + 2) + 'px';
			apply();
		}
		function cmp(a, b) {
			var k = sort.key, r;
			if (k === 'n') r = a.n < b.n ? -1 : a.n > b.n ? 1 : 0;
			else if (k === 'p') r = val(a) - val(b);
			else r = a[k] - b[k];
			if (!sort.asc) r = -r;
			return r || a.rank - b.rank;	/* ties in rank order, either direction */
		}
		function apply() {
			var q = input.value.trim().toLowerCase();
			view = q ? rows.filter(function (r) { return r.key.indexOf(q) >= 0; }) : rows.slice();
			view.sort(cmp);
			buttons.forEach(function (b) {
				var on = b.getAttribute('data-key') === sort.key;
				b.classList.toggle('sorted', on);
				b.classList.toggle('asc', on && sort.asc);
			});
			count.textContent = fmt(view.length) + ' of ' + fmt(rows.length) + ' functions';
			spacer.style.height = (view.length * ROW) + 'px';
			body.scrollTop = 0;
			paint();
		}
		var pending = false;
		function paint() {
			pending = false;
			var top = body.scrollTop, h = body.clientHeight || 440;
			var first = Math.max(0, Math.floor(top / ROW) - 8);
			var last = Math.min(view.length, Math.ceil((top + h) / ROW) + 8);
			spacer.textContent = '';
			if (!view.length) {
				add(spacer, el('div', 'empty', rows.length ? 'No function matches the filter.' : 'No functions in this document.'));
				return;
			}
			for (var i = first; i < last; i++) {
				var r = view[i], row = el('div', 'vrow');
				row.style.top = (i * ROW) + 'px';
				row.setAttribute('data-func', String(r.f));
				if (state.sel && state.sel.core === core && state.sel.f === r.f) row.classList.add('sel');
				var fn = el('span', 'mono', funcName(r.f));	/* the core is in the selector */
				if (m.listings[core + ':' + r.f]) fn.classList.add('has-listing');
				var heat = el('span', 'heat'), hb = put(heat, el('span'));
				hb.style.width = (100 * val(r) / max).toFixed(1) + '%';
				var nm = el('span', null, r.n);
				nm.title = r.n;
				add(row, el('span', 'num', r.rank), fn, nm);
				if (time)
					add(row, nsCell(r.v), nsCell(r.vi));
				else
					add(row, el('span', 'num', fmt(r.s)));
				add(row, el('span', 'num', time ? pct(val(r), total) : shareOr(r.p, r.s, total)),
					el('span', 'num', fmt(r.b)), heat);
				(function (f) {
					row.addEventListener('click', function () { state.pick(core, f); });
				})(r.f);
				spacer.appendChild(row);
			}
		}
		body.addEventListener('scroll', function () {
			if (!pending) { pending = true; window.requestAnimationFrame(paint); }
		});
		input.addEventListener('input', apply);
		if (coreSel) coreSel.addEventListener('change', function () { setCore(Number(coreSel.value)); });
		setCore(core);
		return {
			showCore: function (ci) {
				if (ci !== core && ci >= 0) { if (coreSel) coreSel.value = String(ci); setCore(ci); }
				else paint();
			},
			/* the switch's state: 'on', 'off' or 'wall' */
			setMode: function (k) {
				if (!time) return;
				mode = k;
				total = modeTotal(m.oc, k);
				buttons.forEach(function (b) {
					if (b.getAttribute('data-key') === 'v') b.textContent = modeOf(k).col;
					if (b.getAttribute('data-key') === 'p') b.textContent = modeOf(k).share;
				});
				setCore(core);
			}
		};
	}

	/* a time cell: milliseconds shown, the nanoseconds in data-ns */
	function nsCell(v) {
		var c = el('span', 'num', ms(v));
		c.setAttribute('data-ns', String(Math.round(num(v))));
		return c;
	}

	/* ---- annotated listing ---- */

	/* report --json has only the hottest instructions: a partial listing from them */
	function partialListing(m, ci, f) {
		for (var i = 0; i < m.classified.length; i++) {
			var x = m.classified[i], cf = x.cf;
			if (x.core !== ci || num(cf.local_func) !== f || !Array.isArray(cf.hottest_instructions)) continue;
			return { local_func: f, name: cf.name, code_bytes: cf.code_bytes, partial: true,
				instruction_count: cf.instruction_count,
				insns: cf.hottest_instructions.map(function (h) {
					return { offset: num(h.offset), bytes: '', text: h.instruction, 'class': h['class'], samples: num(h.samples),
						percent_of_function: h.percent_of_function };
				}).sort(function (a, b) { return a.offset - b.offset; }), data_ranges: [] };
		}
		return null;
	}

	/* ---- hot loops and the what-if per lever (docs/levers.md) ---- */

	function classifiedOf(m, ci, f) {
		for (var i = 0; i < m.classified.length; i++)
			if (m.classified[i].core === ci && num(m.classified[i].cf.local_func) === f) return m.classified[i].cf;
		return null;
	}

	/* the offsets of the loop's blocks: a test of "is this instruction in it" */
	function loopHas(lp, off) {
		var bs = lp.blocks || [];
		for (var k = 0; k < bs.length; k++) if (off >= num(bs[k][0]) && off < num(bs[k][1])) return true;
		return false;
	}

	/* levers with something to remove by predicted payoff, then the rest (as the text report) */
	function leversByPayoff(wi) {
		return Object.keys(wi).sort(function (a, b) {
			var x = wi[a], y = wi[b];
			var rank = function (w) { return !num(w.removed) ? -1e9 : w.payoff_pct === null ? -1e8 : num(w.payoff_pct); };
			var px = rank(x), py = rank(y);
			return py - px;
		});
	}

	function renderLoops(box, cf) {
		var loops = cf.loops || [], s = put(box, el('div', 'loops'));
		s.id = 'loops-box';
		add(s, el('h4', null, 'Hot loops'));
		if (!loops.length) {
			add(s, el('p', 'note', 'No loops (no back edge).'));
			return;
		}
		var t = put(s, el('table', 'ltable'));
		t.id = 'loops-table';
		var hr = put(put(t, el('thead')), el('tr'));
		['loop', 'header', 'depth', 'blocks', 'insns', 'samples', '%func'].forEach(function (h, k) {
			add(hr, el('th', k >= 2 ? 'num' : null, h));
		});
		var tb = put(t, el('tbody'));
		loops.slice(0, 5).forEach(function (lp, i) {
			var tr = put(tb, el('tr', i ? null : 'hotloop'));
			add(tr, el('td', 'num', String(i + 1)), el('td', 'mono', '+' + hex(num(lp.header))),
				el('td', 'num', String(num(lp.depth))), el('td', 'num', String((lp.blocks || []).length)),
				el('td', 'num', fmt(lp.static_instructions)), el('td', 'num', fmt(lp.samples)),
				el('td', 'num', num(lp.percent_of_function).toFixed(1) + '%'));
		});
		if (loops.length > 5) add(s, el('p', 'note', (loops.length - 5) + ' more loops in the document.'));
		/* no lever marked as paying on samples that are not this code's (the listing says why) */
		var hot = loops[0], md = hot.model, nov = cf.levers && cf.levers.no_verdict;
		if (!md) {
			var nm = put(s, el('p', 'note', 'Throughput model: ' + (cf.loops_model_note ||
				(cf.loops_model_note === undefined ? 'not run for this page (report --func/--hot runs llvm-mca).' :
					'llvm-mca gave no numbers for this loop.'))));
			nm.id = 'model-line';
			return;
		}
		add(s, el('p', 'meta', 'Hottest loop (marked in the listing): its executed path, ' + num(md.path_instructions) +
			' instructions, modelled by ' + md.tool + ' -mcpu=' + md.mcpu + ': ' +
			num(md.cycles_per_iteration).toFixed(2) + ' cycles/iteration as compiled.'));
		var why = put(s, el('p', 'note', 'cpu: ' + (md.mcpu_reason || '') + ' \u00b7 bottleneck: ' + (md.bottleneck || '')));
		why.id = 'model-line';
		var wt = put(s, el('table', 'ltable'));
		wt.id = 'whatif-table';
		var wh = put(put(wt, el('thead')), el('tr'));
		['lever', '%samples', 'predicted payoff', 'cycles/iter', 'removed', 'model'].forEach(function (h, k) {
			add(wh, el('th', k && k < 5 ? 'num' : null, h));
		});
		var wb = put(wt, el('tbody')), wi = hot.whatif || {};
		leversByPayoff(wi).forEach(function (lv) {
			var x = wi[lv], rm = num(x.removed);
			var tr = put(wb, el('tr', rm ? null : 'none'));
			tr.setAttribute('data-lever', lv);
			add(tr, el('td', 'mono', lv), el('td', 'num', num(x.sample_pct).toFixed(1) + '%'),
				el('td', 'num' + (rm && !nov && num(x.payoff_pct) >= 2 ? ' pays' : ''), !rm ? '-' :
					x.payoff_pct === null ? 'not modelled' : num(x.payoff_pct).toFixed(1) + '%'),
				el('td', 'num', rm ? num(x.cycles_per_iteration).toFixed(2) : '-'), el('td', 'num', String(rm)),
				el('td', 'mono', md.mcpu));
		});
		add(s, el('p', 'note', 'payoff = 1 - cycles with the lever / cycles as compiled. The model assumes L1 hits and ' +
			'no memory dependences beyond llvm-mca\u2019s (a frame slot stored and reloaded costs no forwarding, as on ' +
			'cores that rename stack memory); the exact llvm-mca input is in the document (loops[].model.input).'));
	}

	function renderListing(box, m, ci, f) {
		box.textContent = '';
		var l = m.listings[ci + ':' + f] || partialListing(m, ci, f);
		var ncores = m.cores.length, cl = ci >= 0 && m.cores[ci] ? m.cores[ci].label : '';
		if (!l) {
			var avail = Object.keys(m.listings).map(function (k) {
				var x = m.listings[k];
				return label(x.core, num(x.local_func), '', ncores);
			});
			add(box, el('p', 'note', 'No instruction listing for ' + label(cl, f, '', ncores) + ' in this document' +
				(avail.length ? '; listed: ' + avail.slice(0, 12).join(', ') + (avail.length > 12 ? ', \u2026' : '') + '.' : '.')));
			return;
		}
		var insns = l.insns || [], maxs = 0, total = 0, i, cfl = classifiedOf(m, ci, f);
		for (i = 0; i < insns.length; i++) { maxs = Math.max(maxs, num(insns[i].samples)); total += num(insns[i].samples); }
		if (typeof l.samples === 'number') total = l.samples;
		else if (l.partial && cfl) total = num(cfl.samples);
		add(box, el('h3', 'mono', label(cl, num(l.local_func), l.name, ncores)));
		/* instructions: jump-table words are not (the document's count, as the text's) */
		var ninsn = typeof l.instruction_count === 'number' ? l.instruction_count :
			insns.filter(function (x) { return x['class'] !== 'data'; }).length;
		var ofRun = cfl && typeof cfl.percent_of_run === 'number' && num(cfl.samples) === total ?
			share(cfl.percent_of_run) : pct(total, m.total);
		add(box, el('p', 'meta', fmt(total) + ' samples (' + ofRun + ' of run) \u00b7 ' +
			fmt(l.code_bytes) + ' bytes \u00b7 ' + fmt(ninsn) + ' instructions' +
			(l.address ? ' \u00b7 at ' + l.address : '') +
			((l.data_ranges || []).length ? ' \u00b7 ' + l.data_ranges.length + ' data range(s)' : '')));
		if (l.partial)
			add(box, el('p', 'note', 'Only the ' + insns.length + ' hottest instructions are in this document (report --json); ' +
				'a full listing needs the document\u2019s listings[] (docs/html-data.md).'));
		var hotLoop = cfl && cfl.loops && cfl.loops.length ? cfl.loops[0] : null;
		/* the text report's line above the class table (docs/consistency.md) */
		if (cfl && cfl.levers && cfl.levers.no_verdict) {
			var nv = put(box, el('p', 'warn', 'NOT authoritative: ' + cfl.levers.no_verdict +
				'; the classes count the samples where they fell, and no lever verdict is drawn.'));
			nv.id = idp + 'no-verdict';
		}
		var present = {};
		insns.forEach(function (x) { present[x['class']] = 1; });
		box.appendChild(legend(present));
		if (cfl && cfl.loops) renderLoops(box, cfl);
		var wrap = put(box, el('div', 'lst-wrap'));
		var t = put(wrap, el('table', 'lst'));
		t.id = idp + 'listing-table';
		var hr = put(put(t, el('thead')), el('tr'));
		['offset', 'bytes', 'instruction', 'class', 'samples', '%func', ''].forEach(function (h, k) {
			add(hr, el('th', k === 4 || k === 5 ? 'num' : null, h));
		});
		var tb = put(t, el('tbody'));
		var ranges = (l.data_ranges || []).slice().sort(function (a, b) { return a.start - b.start; });
		var inRange = function (off) {
			for (var k = 0; k < ranges.length; k++) if (off >= ranges[k].start && off < ranges[k].end) return ranges[k];
			return null;
		};
		var marked = {};
		for (i = 0; i < insns.length; i++) {
			var x = insns[i], cls = x['class'] || 'other', smp = num(x.samples);
			var rg = inRange(num(x.offset));
			if (rg && !marked[rg.start]) {
				marked[rg.start] = 1;
				var rr = put(tb, el('tr', 'range c-data'));
				var rc = el('td', null, 'data [+' + hex(rg.start) + ', +' + hex(rg.end) + '): ' + fmt(rg.end - rg.start) +
					' bytes that are not code (jump table or undecodable bytes)');
				rc.colSpan = 7;
				rr.appendChild(rc);
			}
			var tr = put(tb, el('tr', 'c-' + cls));
			tr.setAttribute('data-offset', String(num(x.offset)));
			if (rg) tr.classList.add('indata');
			if (hotLoop && loopHas(hotLoop, num(x.offset))) {
				tr.classList.add('inloop');
				if (num(x.offset) === num(hotLoop.header)) tr.classList.add('loophead');
			}
			if (smp && smp === maxs) tr.classList.add('hot');
			var sc = el('td', 'num', smp ? fmt(smp) : '');
			if (smp && maxs) sc.style.backgroundColor = 'rgba(217,72,15,' + (0.08 + 0.5 * smp / maxs).toFixed(3) + ')';
			var hb = el('td', 'hbar'), hs = put(hb, el('span'));
			hs.style.width = (maxs ? 100 * smp / maxs : 0).toFixed(1) + '%';
			add(tr, el('td', 'off', '+' + hex(x.offset)), el('td', 'bytes', x.bytes || ''),
				el('td', 'text', x.text || ''), el('td', 'cls', cls), sc,
				el('td', 'num', smp ? shareOr(x.percent_of_function, smp, total, 1) : ''), hb);
		}
		/* a listing taller than its box opens at its hottest instruction */
		var hot = tb.querySelector('tr.hot');
		if (hot && wrap.scrollHeight > wrap.clientHeight) {
			var at = hot.getBoundingClientRect().top - wrap.getBoundingClientRect().top;
			if (at > wrap.clientHeight * 0.6) wrap.scrollTop = Math.max(0, at - wrap.clientHeight / 3);
		}
	}

	/* ---- before / after ---- */

	/* a p-value as the text prints it: "-" untested, "<1e-9", two digits */
	function pval(p) {
		if (p === null || isNaN(p)) return '-';
		if (p < 1e-9) return '<1e-9';
		if (p >= 1e-4) return Number(p.toPrecision(2)).toString();
		/* printf's %.2g: 1.5e-05, 2e-07 */
		return p.toExponential(1).replace(/\.0e/, 'e').replace(/e([+-])(\d)$/, 'e$10$2');
	}

	function renderDiff(app, m, onPick) {
		var d = m.diff, s = section(app, 'diff', 'Before / after');
		var bt = num(d.before && d.before.total_samples), at = num(d.after && d.after.total_samples);
		var fs = (d.functions || []).map(function (x) {
			var b = num(x.before), a = num(x.after);
			return { core: m.coreOf(x.core), cl: x.core, f: num(x.local_func), name: x.name || '', b: b, a: a,
				bp: bt ? 100 * b / bt : 0, ap: at ? 100 * a / at : 0,
				p: x.p_adjusted === undefined ? null : Number(x.p_adjusted), sig: !!x.significant };
		});
		if (!bt) fs.forEach(function (x) { bt += x.b; });
		if (!at) fs.forEach(function (x) { at += x.a; });
		fs.forEach(function (x) { x.bp = bt ? 100 * x.b / bt : 0; x.ap = at ? 100 * x.a / at : 0; x.dp = x.ap - x.bp; });
		fs.sort(function (x, y) { return Math.abs(y.dp) - Math.abs(x.dp) || y.a - x.a; });
		add(s, el('p', 'note', 'before: ' + ((d.before && d.before.label) || 'before') + ' (' + fmt(bt) + ' samples) \u00b7 after: ' +
			((d.after && d.after.label) || 'after') + ' (' + fmt(at) + ' samples). Ranked by the change of each function\u2019s share of its run.'));
		var t = put(s, el('table', 'dtable'));
		t.id = idp + 'diff-table';
		var hr = put(put(t, el('thead')), el('tr'));
		/* aotperf diff tests each change: its adjusted p-value and '*' as in the text */
		var tested = fs.some(function (x) { return x.p !== null; });
		var heads = ['function', 'before', '%', 'after', '%', '\u0394 points'].concat(tested ? ['p (adj.)'] : [], ['']);
		heads.forEach(function (h, k) { add(hr, el('th', k && k < heads.length - 1 ? 'num' : null, h)); });
		var tb = put(t, el('tbody')), maxp = 0;
		fs.forEach(function (x) { maxp = Math.max(maxp, x.bp, x.ap); });
		fs.slice(0, 100).forEach(function (x) {
			var tr = put(tb, el('tr'));
			var nm = el('td', 'name mono', label(x.cl, x.f, x.name, m.cores.length));
			nm.title = nm.textContent;
			if (x.core >= 0 && m.listings[x.core + ':' + x.f]) nm.classList.add('has-listing');
			if (x.sig) tr.classList.add('sig');
			nm.addEventListener('click', function () { if (x.core >= 0) onPick(x.core, x.f); });
			var dcell = el('td', 'num ' + (x.dp > 0.005 ? 'worse' : x.dp < -0.005 ? 'better' : ''), (x.dp > 0 ? '+' : '') + x.dp.toFixed(2) + (x.sig ? ' *' : ''));
			var bars = el('td', 'dbars');
			[['before', x.bp], ['after', x.ap]].forEach(function (p) {
				var tr2 = put(bars, el('div', 'track')), f = put(tr2, el('div', 'fill ' + p[0]));
				f.style.width = (maxp ? 100 * p[1] / maxp : 0).toFixed(2) + '%';
			});
			add(tr, nm, el('td', 'num', fmt(x.b)), el('td', 'num', x.bp.toFixed(2) + '%'), el('td', 'num', fmt(x.a)),
				el('td', 'num', x.ap.toFixed(2) + '%'), dcell);
			if (tested) add(tr, el('td', 'num pval', pval(x.p)));
			add(tr, bars);
		});
		if (tested)
			add(s, el('p', 'note', '* significant at ' + (100 * num(d.level || 0.95)).toFixed(0) + '%: p-value ' +
				(d.adjust || 'Holm') + '-adjusted over ' + fmt(num(d.tested_functions)) + ' tested functions (as aotperf diff prints).'));
		if (fs.length > 100) add(s, el('p', 'note', 'The 100 largest changes of ' + fmt(fs.length) + ' functions.'));
		if (Array.isArray(d.classes) && d.classes.length) {
			add(s, el('h3', null, 'Class mix, before and after'));
			var grid = put(s, el('div', 'bars mixbars'));
			var present = {};
			d.classes.forEach(function (x) {
				var lb = el('span', 'lbl mono', label(x.core, num(x.local_func), x.name, m.cores.length));
				lb.title = lb.textContent;
				var pair = el('div', 'pair');
				var tots = [];
				[['before', x.before || {}], ['after', x.after || {}]].forEach(function (p) {
					var tot = 0;
					CLASSES.forEach(function (c) { tot += num(p[1][c]); if (num(p[1][c])) present[c] = 1; });
					tots.push(fmt(tot));
					add(pair, el('span', 'meta', p[0]), mixBar(p[1], tot));
				});
				add(grid, lb, pair, el('span', 'num', tots.join(' \u2192 ')));
			});
			s.appendChild(legend(present));
		}
		renderLoopPairs(s, m, d);
	}

	/* aotperf diff with off-CPU data on both sides: off-CPU and wall time per function, in ms */
	function renderDiffOffCpu(s, oc) {
		if (!oc) return;
		add(s, el('h3', null, 'Off-CPU time, before and after'));
		if (!Array.isArray(oc.functions)) {
			add(s, el('p', 'note', oc.note || ''));
			return;
		}
		var ms = function (ns) { return (num(ns) / 1e6).toFixed(2); };
		var run = function (w, x) {
			x = x || {};
			return w + ': on-CPU ' + ms(x.on_cpu_ns) + ' ms + off-CPU ' + ms(x.off_cpu_ns) + ' ms = wall ' + ms(x.wall_ns) + ' ms';
		};
		add(s, el('p', 'note', run('before', oc.before) + ' \u00b7 ' + run('after', oc.after) + ' (per recording).'));
		var t = put(s, el('table', 'dtable'));
		t.id = idp + 'diff-offcpu-table';
		var hr = put(put(t, el('thead')), el('tr'));
		['function', 'off-CPU before', 'after', '\u0394 ms', 'incl. before', 'incl. after', 'wall before', 'wall after', 'mean wait', 'p (adj.)'].forEach(function (h, k) {
			add(hr, el('th', k ? 'num' : null, h));
		});
		var tb = put(t, el('tbody'));
		oc.functions.slice(0, 100).forEach(function (x) {
			var o = x.off_cpu || {}, b = o.before || {}, a = o.after || {}, mt = o.mean_interval_test || {};
			var tr = put(tb, el('tr')), dn = num(a.off_cpu_ns) - num(b.off_cpu_ns);
			if (mt.significant) tr.classList.add('sig');
			add(tr, el('td', 'name mono', x.name || ''), el('td', 'num', ms(b.off_cpu_ns)), el('td', 'num', ms(a.off_cpu_ns)),
				el('td', 'num ' + (dn > 0 ? 'worse' : dn < 0 ? 'better' : ''), (dn > 0 ? '+' : '') + ms(o.change_ns)),
				el('td', 'num', ms(b.off_cpu_incl_ns)), el('td', 'num', ms(a.off_cpu_incl_ns)),
				el('td', 'num', ms(b.wall_ns)), el('td', 'num', ms(a.wall_ns)),
				el('td', 'num', ms(b.mean_interval_ns) + ' \u2192 ' + ms(a.mean_interval_ns)),
				el('td', 'num pval', mt.p_adjusted === null || mt.p_adjusted === undefined ? '-' : pval(Number(mt.p_adjusted)) + (mt.significant ? ' *' : '')));
		});
		add(s, el('p', 'note', 'ms per recording; wall = on-CPU samples \u00d7 period + off-CPU (self). p: Welch\u2019s t-test of the mean wait ' +
			'(one off-CPU interval), adjusted over ' + fmt(num(oc.tested_functions)) + ' tested functions; the totals\u2019 change is not tested.'));
	}

	/* diff / compare: each function's hottest loop on both sides, modelled by llvm-mca */
	function renderLoopPairs(s, m, d) {
		var xs = (d.classes || []).filter(function (x) { return x.hottest_loop && Array.isArray(x.hottest_loop.sides); });
		if (!xs.length) return;
		var w = xs[0].hottest_loop.sides, cyc = function (v) { return v ? num(v.cycles_per_iteration).toFixed(2) : '-'; };
		add(s, el('h3', null, 'Hottest loop, predicted cycles per iteration (llvm-mca)'));
		var t = put(s, el('table', 'ltable'));
		t.id = 'loop-pair-table';
		var hr = put(put(t, el('thead')), el('tr'));
		['function', '-mcpu', w[0], w[1], 'change', 'note'].forEach(function (h, k) { add(hr, el('th', k >= 2 && k < 5 ? 'num' : null, h)); });
		var tb = put(t, el('tbody'));
		xs.forEach(function (x) {
			var hl = x.hottest_loop, a = hl[hl.sides[0]], b = hl[hl.sides[1]];
			var ch = hl.gap_cycles_per_iteration !== undefined ? hl.gap_cycles_per_iteration : hl.change_cycles_per_iteration;
			var tr = put(tb, el('tr'));
			add(tr, el('td', 'mono', label(x.core, num(x.local_func), x.name, m.cores.length)), el('td', 'mono', hl.mcpu || '-'),
				el('td', 'num', cyc(a)), el('td', 'num', cyc(b)),
				el('td', 'num', ch === null || ch === undefined ? '-' : (ch > 0 ? '+' : '') + num(ch).toFixed(2)),
				el('td', 'note', hl.note || ''));
			if (!hl.levers || !a || !b) return;
			add(s, el('p', 'note', 'Gap per lever of ' + label(x.core, num(x.local_func), x.name, m.cores.length) + ': ' + hl.sides[0] +
				'\u2019s cycles per iteration with the lever minus ' + hl.sides[1] + '\u2019s as compiled (each side\u2019s hottest loop, ' +
				'which need not do the same work per iteration).'));
			var lt = put(s, el('table', 'ltable'));
			lt.id = 'loop-lever-table';
			var lh = put(put(lt, el('thead')), el('tr'));
			['lever', 'removed', hl.sides[0], 'gap'].forEach(function (h, k) { add(lh, el('th', k ? 'num' : null, h)); });
			var lb = put(lt, el('tbody'));
			Object.keys(hl.levers).forEach(function (lv) {
				var v = hl.levers[lv], r = put(lb, el('tr', num(v.removed) ? null : 'none'));
				var g = num(v.gap_cycles_per_iteration);
				add(r, el('td', 'mono', lv), el('td', 'num', String(num(v.removed))),
					el('td', 'num', num(v.cycles_per_iteration).toFixed(2)), el('td', 'num', (g > 0 ? '+' : '') + g.toFixed(2)));
			});
		});
	}

	/* ---- aotperf diff's page: the diff's JSON document (docs/compare.md "JSON") ---- */

	/* a diff document: aotperf diff's JSON, with the page's listings */
	function isDiffDoc(doc) {
		return doc.tool === 'aotperf diff' && Array.isArray(doc.functions) && doc.before && Array.isArray(doc.before.captures);
	}

	/* the formats' words for a time, a change, a relative change (render/table-cell.c) */
	function dms(ns, sign) {
		if (ns === null || ns === undefined) return '';
		var v = (num(ns) / 1e6).toFixed(2);
		return sign && num(ns) >= 0 ? '+' + v : v;
	}
	function drel(ch) {
		if (!ch) return '';
		if (ch.relative_pct === null || ch.relative_pct === undefined) return num(ch.delta !== undefined ? ch.delta : ch.points) > 0 ? 'new' : '';
		var r = num(ch.relative_pct);
		if (Math.abs(r) >= 9999.5) return r > 0 ? '>+9999%' : '<-9999%';
		return (r >= 0 ? '+' : '') + r.toFixed(0) + '%';
	}
	function dp(ch) {
		return !ch || ch.test === 'none' ? '-' : pval(num(ch.p_adjusted)) + (ch.significant ? ' *' : '');
	}
	function dpct(v) {
		return v === null || v === undefined ? '' : num(v).toFixed(2);
	}

	/* one side: its recordings (samples, CPU time, cut short, fit), its cores' consistency */
	function diffSideCard(cards, word, sd, unit) {
		var card = put(cards, el('div', 'card'));
		card.id = 'side-' + word;
		add(card, el('h3', null, word + ': ' + (sd.cores || []).map(function (c) { return c.core; }).join(', ')));
		var dl = put(card, el('dl', 'kv'));
		(sd.captures || []).forEach(function (c) {
			kv(dl, c.perf, fmt(c.total_samples) + ' samples' + (c.time !== null && c.time !== undefined ? ', ' + dms(c.time) + ' ' + unit : '') +
				(c.truncated ? ', CUT SHORT' : '') + (c.consistent === false ? ', NOT consistent with its core' : ''));
		});
		(sd.cores || []).forEach(function (c) {
			var cs = c.consistency;
			if (cs) kv(dl, 'consistency', fmt(cs.consistent) + ' of ' + fmt(cs.checked) + ' sampled addresses fit ' + c.core +
				' (' + num(cs.percent).toFixed(2) + '%)' + (cs.ok ? '' : ': NOT consistent'));
		});
		if (sd.problem) add(card, el('p', 'warn', sd.problem));
	}

	function diffCells(tr, t, s) {
		var ch = t ? t.change : null;
		add(tr, el('td', 'num', t ? dms(t.before.mean) : ''), el('td', 'num', t ? dms(t.after.mean) : ''),
			el('td', 'num ' + (ch && num(ch.delta) > 0 ? 'worse' : ch && num(ch.delta) < 0 ? 'better' : ''), ch ? dms(ch.delta, 1) : ''),
			el('td', 'num', drel(ch)), el('td', 'num pval', dp(ch)),
			el('td', 'num', s ? dpct(s.before.mean) : ''), el('td', 'num', s ? dpct(s.after.mean) : ''));
	}

	function diffHead(t, first, unit) {
		var hr = put(put(t, el('thead')), el('tr'));
		[first, 'before ' + unit, 'after ' + unit, '\u0394 ' + unit, 'rel', 'p (adj.)', 'before %', 'after %'].forEach(function (h, k) {
			add(hr, el('th', k ? 'num' : null, h));
		});
	}

	function renderDiffDoc(app, doc) {
		var unit = doc.time_unit === 'ns' ? 'ms' : 'M ' + (doc.time_unit || 'events');
		var after = doc.after.cores || [];
		/* what renderListing needs: the after build's cores and listings */
		var m = { cores: after.map(function (c, i) { return { i: i, label: c.core, block: c, rows: [] }; }),
			listings: {}, classified: [], byLabel: {} };
		m.cores.forEach(function (c) { m.byLabel[c.label] = c.i; });
		m.coreOf = function (lbl) { return m.byLabel[lbl] !== undefined ? m.byLabel[lbl] : m.cores.length === 1 ? 0 : -1; };
		(doc.listings || []).forEach(function (l) { m.listings[m.coreOf(l.core) + ':' + num(l.local_func)] = l; });
		m.total = 0;
		(doc.after.captures || []).forEach(function (c) { m.total += num(c.total_samples); });

		var s = section(app, 'summary', 'Run');
		var cards = put(s, el('div', 'cards'));
		diffSideCard(cards, 'before', doc.before, unit);
		diffSideCard(cards, 'after', doc.after, unit);
		var t = put(s, el('table', 'dtable'));
		t.id = 'diff-totals';
		diffHead(t, 'CPU time per run', unit);
		var tb = put(t, el('tbody'));
		[['the run (every sample)', doc.run_time, null], ['in wasm code', doc.wasm_time, doc.wasm]].concat(
			(doc.core_pairs || []).length > 1 ? doc.core_pairs.map(function (p) { return [p.core, p.time, p.share]; }) : []
		).forEach(function (r) {
			if (!r[1] && !r[2]) return;
			diffCells(add(put(tb, el('tr')), el('td', 'name', r[0])), r[1], r[2]);
		});
		var warnings = [].concat(doc.warnings || []);
		if (warnings.length) {
			var ul = put(s, el('ul', 'warn'));
			warnings.forEach(function (w) { add(ul, el('li', null, w)); });
		}

		var state = { box: null };
		var pick = function (ci, f) {
			if (ci < 0 || !state.box) return;
			renderListing(state.box, m, ci, f);
			var ls = document.getElementById('listing');
			if (ls && ls.scrollIntoView && state.scroll) ls.scrollIntoView({ block: 'start' });
		};
		var d = section(app, 'diff', 'Before / after');
		var byTime = doc.by !== 'share';
		add(d, el('p', 'note', 'Self CPU time per run (' + unit + ', the mean over each side\u2019s recordings) and share of the run, ' +
			'sorted by the size of the ' + (byTime ? 'time' : 'share') + ' change; \u0394 coloured by the time change. ' + doc.test + '.'));
		var ft = put(d, el('table', 'dtable'));
		ft.id = 'diff-table';
		diffHead(ft, 'function', unit);
		var fb = put(ft, el('tbody'));
		var shown = doc.functions.slice(0, num(doc.functions_listed));
		shown.forEach(function (x) {
			var tr = put(fb, el('tr'));
			var af = x.after_func, ci = af ? m.coreOf(x.core) : -1, f = af ? num(af.local_func) : -1;
			var nm = el('td', 'name mono', x.label);
			nm.title = x.label;
			if (ci >= 0 && m.listings[ci + ':' + f]) nm.classList.add('has-listing');
			var tm = x.self_time || null;
			if (tm && tm.change.significant || !tm && x.self.change.significant) tr.classList.add('sig');
			tr.setAttribute('data-verdict', x.verdict || '');
			nm.addEventListener('click', function () { pick(ci, f); });
			diffCells(add(tr, nm), tm, x.self);
		});
		add(d, el('p', 'note', '* significant at ' + (100 * num(doc.level)).toFixed(0) + '%: p-value ' + ({ holm: 'Holm', bonferroni: 'Bonferroni' }[doc.adjust] || 'no') +
			'-adjusted over ' + fmt(num(tmOf(doc) ? doc.tested_functions_time : doc.tested_functions)) + ' tested functions (as aotperf diff prints).' +
			(doc.functions.length > shown.length ? ' ' + fmt(shown.length) + ' of ' + fmt(doc.functions.length) +
				' functions with samples listed (--top); the JSON has every one.' : '')));
		renderDiffOffCpu(d, doc.off_cpu);
		var cfs = doc.classified_functions || [];
		if (cfs.length) {
			add(d, el('h3', null, 'Class mix, before and after'));
			var grid = put(d, el('div', 'bars mixbars'));
			var present = {};
			cfs.forEach(function (x) {
				var lb = el('span', 'lbl mono', x.name || x.spec);
				var pair = el('div', 'pair'), tots = [];
				['before', 'after'].forEach(function (side) {
					var counts = {}, tot = 0;
					Object.keys(x.classes || {}).forEach(function (c) {
						counts[c] = num(x.classes[c]['samples_' + side]);
						tot += counts[c];
						if (counts[c]) present[c] = 1;
					});
					tots.push(fmt(tot));
					add(pair, el('span', 'meta', side), mixBar(counts, tot));
				});
				add(grid, lb, pair, el('span', 'num', tots.join(' \u2192 ')));
			});
			d.appendChild(legend(present));
			renderLoopPairs(d, m, { classes: cfs.map(function (x) {
				return { core: x.core, local_func: x.after_local_func, name: x.name, hottest_loop: x.hottest_loop };
			}) });
		}
		if (doc.gate) {
			var g = section(app, 'gate', 'Gate: --fail-if-slower ' + doc.gate.fail_if_slower_pct + '%: ' + doc.gate.verdict);
			add(g, el('p', 'note', 'Judged: ' + doc.gate.judged + ', by ' + doc.gate.by + '.'));
			var gt = put(g, el('table', 'dtable'));
			gt.id = 'gate-table';
			var gh = put(put(gt, el('thead')), el('tr'));
			['judged', 'before', 'after', 'rel', 'p (adj.)', 'verdict'].forEach(function (h, k) { add(gh, el('th', k && k < 5 ? 'num' : null, h)); });
			var gb = put(gt, el('tbody'));
			(doc.gate.checks || []).forEach(function (c) {
				var byT = doc.gate.by === 'time per run' && c.time;
				var ch = byT ? c.time.change : c.change;
				add(put(gb, el('tr', c.slower ? 'sig' : null)), el('td', 'name mono', c.label),
					el('td', 'num', byT ? dms(c.time.before.mean) + ' ' + unit : dpct(c.before.mean) + '%'),
					el('td', 'num', byT ? dms(c.time.after.mean) + ' ' + unit : dpct(c.after.mean) + '%'),
					el('td', 'num ' + (num(byT ? ch.delta : ch.points) > 0 ? 'worse' : 'better'), drel(ch)),
					el('td', 'num pval', dp(ch)), el('td', c.slower ? 'worse' : null, c.verdict));
			});
			if (doc.gate.reason) add(g, el('p', doc.gate.failed ? 'warn' : 'note', doc.gate.reason));
		}
		var ls = section(app, 'listing', 'Annotated listing (after)');
		state.box = put(ls, el('div'));
		state.box.id = 'listing-box';
		var best = null;
		Object.keys(m.listings).forEach(function (k) {
			var l = m.listings[k], n = 0;
			(l.insns || []).forEach(function (x) { n += num(x.samples); });
			if (!best || n > best.n) best = { core: m.coreOf(l.core), f: num(l.local_func), n: n };
		});
		if (best) pick(best.core, best.f);
		else add(state.box, el('p', 'note', 'No listings in this document.'));
		state.scroll = true;
	}
	function tmOf(doc) {
		return doc.time_unit !== null && doc.time_unit !== undefined;
	}

	/* ---- the page ---- */

	function fail(app, msg) {
		app.textContent = '';
		add(app, el('h1', null, 'aotperf report'), el('p', 'error', msg));
		if (window.console) console.error('aotperf report: ' + msg);
	}

	function main() {
		var app = document.getElementById('app'), data = document.getElementById('aotperf-data');
		var doc;
		try {
			doc = JSON.parse(data ? data.textContent : '');
		} catch (e) {
			fail(app, 'The data document in this file is not valid JSON: ' + e.message);
			return;
		}
		if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
			fail(app, 'The data document in this file is not a JSON object.');
			return;
		}
		if (isDiffDoc(doc)) {
			app.textContent = '';
			document.title = 'aotperf: ' + (doc.title || 'before / after');
			add(app, el('h1', null, doc.title || 'before / after'));
			add(app, el('p', 'sub', [doc.tool, doc.event].filter(Boolean).join(' \u00b7 ')));
			renderDiffDoc(app, doc);
			document.documentElement.setAttribute('data-ready', '1');
			return;
		}
		var m = normalise(doc);
		app.textContent = '';
		var first = m.cores[0];
		var title = doc.title || (m.cores.length === 1 ? first.label : m.cores.length + ' cores') + (m.diff ? ': before / after' : '');
		var events = Array.isArray(doc.events) && doc.events.length > 1 ? doc.events : null;
		document.title = 'aotperf: ' + title;
		add(app, el('h1', null, title));
		add(app, el('p', 'sub', [doc.tool || 'aotperf', doc.perf, events ? events.length + ' events' :
			doc.event || (doc.sampled_event && doc.sampled_event.name)].filter(Boolean).join(' \u00b7 ')));
		if (!events) {
			renderBlock(app, m);
		} else {
			/* a recording of several sampling events: a block per event, as perf report has a table each */
			var nav = put(app, el('p', 'note events-nav'));
			add(nav, document.createTextNode(events.length + ' sampling events, each in its own block: '));
			events.forEach(function (e, i) {
				var a = el('a', null, e.event || ('event ' + i));
				a.href = '#event-' + i;
				add(nav, i ? document.createTextNode(', ') : null, a,
					document.createTextNode(' (' + fmt(e.total_samples) + ' samples)'));
			});
			events.forEach(function (e, i) {
				var blk = put(app, el('section', 'event-block'));
				blk.id = 'event-' + i;
				blk.setAttribute('data-event', String(e.event || ''));
				add(blk, el('h2', 'event-title', 'event ' + (e.event || i) + ' \u00b7 ' + fmt(e.total_samples) + ' samples'));
				idp = i ? 'event' + i + '-' : '';
				renderBlock(blk, normalise(e));
			});
			idp = '';
		}
		document.documentElement.setAttribute('data-ready', '1');
	}

	/* One event's views: run, stacks or self samples, class mix, functions, listing. */
	function renderBlock(app, m) {
		var first = m.cores[0], pfx = idp;
		var state = { sel: null };
		var listingBox, table;
		state.pick = function (ci, f) {
			if (ci < 0) return;
			state.sel = { core: ci, f: f };
			if (table) table.showCore(ci);
			renderListing(listingBox, m, ci, f);
			var ls = document.getElementById(pfx + 'listing');
			if (ls && ls.scrollIntoView && state.scroll) ls.scrollIntoView({ block: 'start' });
		};
		var flame = null, setMode = null;
		renderSummary(app, m);
		/* off-CPU data: the switch re-draws the icicle and the table in its time */
		if (m.oc) setMode = renderSwitch(app, m, function (k) {
			if (flame) flame.set(m.oc.trees[k], modeOf(k), m.oc.leftOut[k]);
			table.setMode(k);
		});
		if (m.diff) renderDiff(app, m, state.pick);
		if (m.doc.levers) renderLevers(app, m, function (ci, f) { state.pick(ci, f); });
		if (m.tree && m.tree.total > 0) flame = renderFlame(app, m, state.pick);
		else renderSelfChart(app, m, state.pick);
		renderClassMix(app, m, state.pick);
		table = renderTable(app, m, state);
		if (setMode) setMode('on');
		var ls = section(app, 'listing', 'Annotated listing');
		listingBox = put(ls, el('div'));
		listingBox.id = idp + 'listing-box';

		/* the hottest function that has a listing, else the hottest one */
		var best = null;
		Object.keys(m.listings).forEach(function (k) {
			var l = m.listings[k], s = num(l.samples);
			if (!l.samples) (l.insns || []).forEach(function (x) { s += num(x.samples); });
			if (!best || s > best.s) best = { core: m.coreOf(l.core), f: num(l.local_func), s: s };
		});
		m.classified.forEach(function (x) {
			if (!Object.keys(m.listings).length && x.core >= 0 && (!best || num(x.cf.samples) > best.s))
				best = { core: x.core, f: num(x.cf.local_func), s: num(x.cf.samples) };
		});
		if (!best && first && first.rows.length) {
			var top = first.rows.slice().sort(function (a, b) { return b.s - a.s; })[0];
			best = { core: 0, f: top.f };
		}
		if (best) state.pick(best.core, best.f);
		else add(listingBox, el('p', 'note', 'No functions in this document.'));
		state.scroll = true;
	}

	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
	else main();
})();
