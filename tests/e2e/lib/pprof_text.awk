# SPDX-License-Identifier: MIT
#
# protoc --decode's text of a pprof Profile (render/pprof.proto), read into
# arrays for the tests' END blocks (tests/e2e/offcpu_bpf.sh,
# offcpu_kernel.sh): str[] the string table (0-based); sample_type t in
# 1..nt: ttype[t], tunit[t] (string ids); sample i in 1..ns: loc[i, k]
# (k in 1..sn[i], innermost first) and val[i, t]; location id -> lf[id]
# (its function id); function id -> fn[id], fs[id] (name, system name).
#   gawk -f lib/pprof_text.awk -e 'END { ... }' P.txt
/^sample_type \{/ { blk = "t"; nt++; next }
/^sample \{/ { blk = "s"; nv = 0; nl = 0; next }
/^location \{/ { blk = "l"; next }
/^function \{/ { blk = "f"; next }
/^\}/ { if (blk == "s") { ns++; for (k = 1; k <= nl; k++) loc[ns, k] = locs[k]; sn[ns] = nl
		for (k = 1; k <= nv; k++) val[ns, k] = vals[k] }
	blk = ""; next }
blk == "t" && $1 == "type:" { ttype[nt] = $2 }
blk == "t" && $1 == "unit:" { tunit[nt] = $2 }
blk == "s" && $1 == "location_id:" { locs[++nl] = $2 }
blk == "s" && $1 == "value:" { vals[++nv] = $2 }
blk == "l" && $1 == "id:" { lid = $2 }
blk == "l" && $1 == "function_id:" { lf[lid] = $2 }
blk == "f" && $1 == "id:" { fid = $2 }
blk == "f" && $1 == "name:" { fn[fid] = $2 }
blk == "f" && $1 == "system_name:" { fs[fid] = $2 }
/^string_table:/ { x = $0; sub(/^string_table: "/, "", x); sub(/"$/, "", x); str[nstr++] = x }
