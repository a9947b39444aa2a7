/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_JITDUMP_H
#define AOTPERF_JITDUMP_H
/*
 * aotjit: writes perf's jitdump format (tools/perf/Documentation/
 * jitdump-specification.txt) for WAMR ahead-of-time code, so that
 * `perf record -k mono` + `perf inject --jit` + `perf report` name every
 * wasm function.
 *
 * This one file pair is both the format writer aotperf uses after the fact
 * and the library a runtime links (libaotperf-jit.a / .so). It depends on
 * libc and pthreads only, never prints, never exits; every call returns 0
 * or a negative errno, which a runtime may ignore.
 *
 * The exact call a runtime adds right after it makes a core executable:
 *
 *	mprotect(text, text_size, PROT_READ | PROT_EXEC);
 *	aotjit_register_cwasm(NULL, (uintptr_t)text, cwasm, cwasm_len, NULL, 0);
 *
 * (NULL: the process-wide writer, opened on first use; see aotjit_open.)
 *
 * Thread-safe: one mutex per writer. Fork-aware: a child that registers
 * code gets its own jit-<childpid>.dump in the same folder and never writes
 * into its parent's; code the parent registered before the fork stays
 * known to perf through the parent's dump (perf clones the parent's maps
 * into the child).
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct aotjit;

/* Longest name written, NUL included; longer names are cut at a UTF-8
 * character boundary. */
#define AOTJIT_NAME_MAX 512

/*
 * Open a live writer for this process. Creates DIR/jit-<pid>.dump with
 * O_CREAT|O_EXCL|O_NOFOLLOW (never clobbers a file, never follows a
 * symlink), mode 0600 (the dump holds code addresses), writes the 40-byte
 * header with a CLOCK_MONOTONIC timestamp, and maps the file
 * PROT_READ|PROT_EXEC so `perf record` logs the marker MMAP that tells
 * `perf inject --jit` where the dump is.
 *
 * dir NULL: like perf's own agents, a fresh folder
 * BASE/.debug/jit/wasm-jit-YYYYMMDD.XXXXXX (mkdtemp), BASE being
 * $JITDUMPDIR, else $HOME, else /tmp; `perf inject` also writes its
 * jitted-*.so files there.
 *
 * elf_mach: the code's ELF e_machine (62 x86-64, 183 aarch64); 0 = this
 * host's. Returns NULL and sets *err (if not NULL) and errno on failure;
 * *err is a negative errno (-EEXIST: a file or symlink is in the way;
 * -EPERM: an existing .debug folder is someone else's; the marker mmap
 * fails with -EPERM on a noexec mount).
 *
 * The process-wide writer (j NULL in the calls below) is opened with
 * dir NULL on first use; if that fails, the error sticks until
 * aotjit_close(NULL).
 */
struct aotjit *aotjit_open(const char *dir, uint32_t elf_mach, int *err);

/*
 * Open a writer that records code for ANOTHER process, after the fact:
 * creates exactly PATH (O_EXCL|O_NOFOLLOW, mode 0644), header pid and
 * timestamp as given; records carry pid (and tid = pid). No marker mapping
 * (the caller inserts the marker record into perf.data). Use it with the
 * *_at calls and explicit timestamps. Not usable in a forked child
 * (-ECHILD): the fork would share its file.
 */
struct aotjit *aotjit_open_file(const char *path, uint32_t pid,
				uint32_t elf_mach, uint64_t timestamp,
				int *err);

/* The dump's path, owned by the writer and valid until its next call (a
 * forked child's first call moves it to the child's dump); NULL for the
 * process-wide writer when it has not been opened yet. */
const char *aotjit_path(struct aotjit *j);

/*
 * One JIT_CODE_LOAD record: code of SIZE bytes that runs at ADDR (vma ==
 * code_addr), named NAME (sanitized, see aotjit_sanitize_name). CODE may
 * be NULL only when SIZE is 0. timestamp 0 = now (CLOCK_MONOTONIC ns).
 * j NULL: the process-wide writer.
 */
int aotjit_code_load(struct aotjit *j, uint64_t addr, const void *code,
		     uint64_t size, const char *name, uint64_t timestamp);

/*
 * A whole core whose TEXT (TEXT_SIZE bytes) is mapped at BASE: function i
 * starts at BASE + offsets[i] and runs to the next offset (the last one to
 * the end of text). Offsets must be ascending and inside the text; they
 * are all checked before anything is written (-EINVAL). Functions of size
 * 0 get no record (no sample can land in them).
 * names: NULL, or nfuncs entries where NULL or "" means the default;
 * the default name is local_func_<i>. prefix (e.g. "mod4:") or NULL is
 * put in front of every name. All records of the call share one
 * timestamp; the file is flushed before the call returns.
 */
int aotjit_register_core(struct aotjit *j, uint64_t base, const void *text,
			 uint64_t text_size, const uint32_t *offsets,
			 uint32_t nfuncs, const char *const *names,
			 const char *prefix);

/* The same with an explicit timestamp (0 = now), for aotjit_open_file. */
int aotjit_register_core_at(struct aotjit *j, uint64_t base, const void *text,
			    uint64_t text_size, const uint32_t *offsets,
			    uint32_t nfuncs, const char *const *names,
			    const char *prefix, uint64_t timestamp);

/* Name style for aotjit_register_cwasm. */
enum {
	/* local_func_N:<wasm name> where the name section or an export
	 * names the function (default: plain local_func_N, what
	 * `perf annotate local_func_N` and aotperf expect) */
	AOTJIT_WASM_NAMES = 1u << 0,
};

/*
 * The one-call form: parses the .cwasm bytes itself (magic "\0aot",
 * version >= 6, sections u32 type + u32 size: 2 text, 3 function table
 * (v7+ offset/type pairs or v6 offsets, told apart by size), optionally
 * 4 exports, 7 names, 8 imports) and registers its text as mapped at BASE.
 * Errors: -ENOEXEC not a .cwasm, -ENOTSUP a layout we do not know
 * (upstream C WAMR .aot, version < 6), -EINVAL inconsistent sections.
 */
int aotjit_register_cwasm(struct aotjit *j, uint64_t base, const void *cwasm,
			  size_t len, const char *prefix, unsigned flags);

/* Write the JIT_CODE_CLOSE record (timestamp: now for a live writer, the
 * newest timestamp written for aotjit_open_file), unmap the marker, close
 * and free. A forked child that never wrote leaves its parent's dump alone.
 * j NULL: the process-wide writer (which may then be opened again). */
int aotjit_close(struct aotjit *j);

/* CLOCK_MONOTONIC in ns, the clock `perf record -k mono` uses; 0 on error. */
uint64_t aotjit_now(void);

/*
 * Copy at most LEN bytes of SRC (stops at a NUL) into DST (DSTSZ bytes,
 * always NUL-terminated when DSTSZ > 0), keeping valid printable UTF-8 and
 * replacing control characters (newline and CR included, which would break
 * a perf map line), DEL, C1 controls and invalid UTF-8 bytes with '_'.
 * Cuts only at a character boundary. Returns the length written.
 */
size_t aotjit_sanitize_name(char *dst, size_t dstsz, const char *src,
			    size_t len);

#ifdef __cplusplus
}
#endif

#endif
