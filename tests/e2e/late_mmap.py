#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""late_mmap.py IN OUT LEN|name=TEXT [SKIP|rounds=N]: copy a perf.data file
(file mode) with the first executable //anon MMAP2 record of length LEN (or
the first executable MMAP2 of a file whose name holds TEXT) moved SKIP
records later in the data section (default 50), as perf's per-CPU flush
rounds can write it, or after the Nth FINISHED_ROUND after it (past where
perf writes it, and where aotperf's walks ahead look, which end at the end
of the round after a sample's: session/lookahead.h): samples that lie in that mapping now come before it in the stream, so a
reader has to order them by time (aotperf starts over with two passes).
Nothing else changes: the data section keeps its size and place."""
import struct
import sys

PERF_RECORD_MMAP2 = 10
FINISHED_ROUND = 68
PROT_EXEC = 4


def main():
    src, dst, want = sys.argv[1], sys.argv[2], sys.argv[3]
    text = want[5:].encode() if want.startswith("name=") else None
    length = None if text else int(want)
    skip = sys.argv[4] if len(sys.argv) > 4 else "50"
    buf = bytearray(open(src, "rb").read())
    if buf[:8] != b"PERFILE2":
        sys.exit("late_mmap.py: %s: not a perf.data file" % src)
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    recs, pos, end = [], data_off, data_off + data_size
    while pos + 8 <= end:
        rtype, _misc, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8:
            break
        recs.append((pos, size, rtype))
        pos += size
    for i, (off, size, rtype) in enumerate(recs):
        if rtype != PERF_RECORD_MMAP2:
            continue
        _pid, _tid, _start, ln = struct.unpack_from("<IIQQ", buf, off + 8)
        prot = struct.unpack_from("<I", buf, off + 8 + 56)[0]
        name = bytes(buf[off + 8 + 64:off + size]).split(b"\0")[0]
        if not prot & PROT_EXEC:
            continue
        if text is not None and text in name and not name.startswith(b"//anon"):
            break
        if text is None and ln == length and name.startswith(b"//anon"):
            break
    else:
        sys.exit("late_mmap.py: %s: no r-x MMAP2 for %s" % (src, want))
    if skip.startswith("rounds="):
        left = int(skip[7:])
        for j in range(i + 1, len(recs)):
            if recs[j][2] == FINISHED_ROUND:
                left -= 1
                if not left:
                    break
        if left:
            sys.exit("late_mmap.py: %s: fewer than %s rounds after it" % (src, skip[7:]))
    else:
        j = min(i + int(skip), len(recs) - 1)
    moved = bytes(buf[off:off + size])
    after_end = recs[j][0] + recs[j][1]
    buf[off:after_end] = buf[off + size:after_end] + moved
    open(dst, "wb").write(buf)


if __name__ == "__main__":
    main()
