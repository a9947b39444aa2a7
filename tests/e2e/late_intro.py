#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""late_intro.py IN OUT COMM [ROUNDS]: copy a perf.data file (file mode) with
the records that introduce the process that exec'd COMM (its FORK, COMM and
MMAP/MMAP2 records before its first sample) moved to just after that first
sample, as perf writes them when the fork ran on one CPU and the child's
first sample on another of the same flush round. With ROUNDS, they go after
that many more FINISHED_ROUND records instead (past where perf can put
them: a reader must read twice). Prints how many records moved: 0 when
perf already wrote them all after that sample (the copy is the same).
Nothing else changes: the data section keeps its size and place."""
import struct
import sys

SAMPLE, MMAP, COMM, FORK, MMAP2, FINISHED_ROUND = 9, 1, 3, 7, 10, 68
SAMPLE_IP, SAMPLE_TID, SAMPLE_IDENTIFIER = 1 << 0, 1 << 1, 1 << 16


def records(buf):
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    pos, end = data_off, data_off + data_size
    while pos + 8 <= end:
        rtype, _misc, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8:
            break
        yield pos, size, rtype
        pos += size


def sample_type(buf):
    """The first attr's sample_type (the recording has one event)."""
    attr_off = struct.unpack_from("<Q", buf, 24)[0]
    return struct.unpack_from("<Q", buf, attr_off + 24)[0]


def sample_pid(buf, off, stype):
    pos = off + 8
    pos += 8 if stype & SAMPLE_IDENTIFIER else 0
    pos += 8 if stype & SAMPLE_IP else 0
    return struct.unpack_from("<I", buf, pos)[0] if stype & SAMPLE_TID else None


def record_pid(buf, off, rtype):
    if rtype in (MMAP, MMAP2, COMM, FORK):
        return struct.unpack_from("<I", buf, off + 8)[0]
    return None


def main():
    src, dst, comm = sys.argv[1], sys.argv[2], sys.argv[3].encode()
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    buf = bytearray(open(src, "rb").read())
    if buf[:8] != b"PERFILE2":
        sys.exit("late_intro.py: %s: not a perf.data file" % src)
    stype = sample_type(buf)
    recs = list(records(buf))
    pid = None
    for off, size, rtype in recs:
        if rtype == COMM and bytes(buf[off + 16:off + size]).split(b"\0")[0] == comm:
            pid = struct.unpack_from("<I", buf, off + 8)[0]
            break
    if pid is None:
        sys.exit("late_intro.py: %s: no COMM %s" % (src, comm.decode()))
    first = next((i for i, (off, _s, t) in enumerate(recs)
                  if t == SAMPLE and sample_pid(buf, off, stype) == pid), None)
    if first is None:
        sys.exit("late_intro.py: %s: no sample of pid %d" % (src, pid))
    moved = [i for i in range(first) if record_pid(buf, recs[i][0], recs[i][2]) == pid]
    if not moved:
        # perf already wrote them after that sample: the copy is the recording
        open(dst, "wb").write(buf)
        print(0)
        return
    dest = first
    for i in range(first + 1, len(recs)):
        if rounds == 0:
            break
        if recs[i][2] == FINISHED_ROUND:
            rounds -= 1
            dest = i
    if rounds:
        sys.exit("late_intro.py: %s: fewer rounds after the first sample" % src)
    order = [i for i in range(dest + 1) if i not in set(moved)] + moved
    lo = recs[moved[0]][0]
    hi = recs[dest][0] + recs[dest][1]
    out = b"".join(bytes(buf[recs[i][0]:recs[i][0] + recs[i][1]]) for i in order
                   if recs[i][0] >= lo)
    buf[lo:hi] = out
    open(dst, "wb").write(buf)
    print(len(moved))


if __name__ == "__main__":
    main()
