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

/* The library's interface; everything else in libaotperf-jit.so is hidden. */
#ifndef AOTJIT_API
#if defined(__GNUC__)
#define AOTJIT_API __attribute__((visibility("default")))
#else
#define AOTJIT_API
#endif
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
AOTJIT_API struct aotjit *aotjit_open(const char *dir, uint32_t elf_mach, int *err);

/*
 * Open a writer that records code for ANOTHER process, after the fact:
 * creates exactly PATH (O_EXCL|O_NOFOLLOW, mode 0644), header pid and
 * timestamp as given; records carry pid (and tid = pid). No marker mapping
 * (the caller inserts the marker record into perf.data). Use it with the
 * *_at calls and explicit timestamps. Not usable in a forked child
 * (-ECHILD): the fork would share its file.
 */
AOTJIT_API struct aotjit *aotjit_open_file(const char *path, uint32_t pid,
				uint32_t elf_mach, uint64_t timestamp,
				int *err);

/* The dump's path, owned by the writer and valid until its next call (a
 * forked child's first call moves it to the child's dump); NULL for the
 * process-wide writer when it has not been opened yet. */
AOTJIT_API const char *aotjit_path(struct aotjit *j);

/*
 * One JIT_CODE_LOAD record: code of SIZE bytes that runs at ADDR (vma ==
 * code_addr), named NAME (sanitized, see aotjit_sanitize_name). CODE may
 * be NULL only when SIZE is 0. timestamp 0 = now (CLOCK_MONOTONIC ns).
 * j NULL: the process-wide writer.
 */
AOTJIT_API int aotjit_code_load(struct aotjit *j, uint64_t addr, const void *code,
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
AOTJIT_API int aotjit_register_core(struct aotjit *j, uint64_t base, const void *text,
			 uint64_t text_size, const uint32_t *offsets,
			 uint32_t nfuncs, const char *const *names,
			 const char *prefix);

/* The same with an explicit timestamp (0 = now), for aotjit_open_file. */
AOTJIT_API int aotjit_register_core_at(struct aotjit *j, uint64_t base, const void *text,
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
 * The one-call form: reads the .cwasm bytes (container versions 6 to 11,
 * docs/formats-cwasm.md) with the same walker aotperf reads them with,
 * and registers its text as mapped at BASE: function i is local_func_i.
 * Nothing is written unless the whole container is consistent.
 * Errors: -ENOEXEC not a .cwasm, -ENOTSUP an upstream C WAMR .aot,
 * -EINVAL inconsistent sections (aotjit_check_cwasm says which),
 * -ENOMEM, or the writer's errors.
 */
AOTJIT_API int aotjit_register_cwasm(struct aotjit *j, uint64_t base, const void *cwasm,
			  size_t len, const char *prefix, unsigned flags);

/*
 * Check .cwasm bytes exactly as aotjit_register_cwasm does, writing
 * nothing: 0, or its error with one line "NAME: what is wrong" in MSG
 * (MSGLEN bytes, always terminated; NAME NULL: "<memory>"; MSG "" on 0).
 */
AOTJIT_API int aotjit_check_cwasm(const void *cwasm, size_t len, const char *name,
		       char *msg, size_t msglen);

/* Write the JIT_CODE_CLOSE record (timestamp: now for a live writer, the
 * newest timestamp written for aotjit_open_file), unmap the marker, close
 * and free. A forked child that never wrote leaves its parent's dump alone.
 * j NULL: the process-wide writer (which may then be opened again). */
AOTJIT_API int aotjit_close(struct aotjit *j);

/* CLOCK_MONOTONIC in ns, the clock `perf record -k mono` uses; 0 on error. */
AOTJIT_API uint64_t aotjit_now(void);

/*
 * Copy at most LEN bytes of SRC (stops at a NUL) into DST (DSTSZ bytes,
 * always NUL-terminated when DSTSZ > 0), keeping valid printable UTF-8 and
 * replacing with one '_' each: a control character (newline and CR
 * included, which would break a perf map line; ESC), DEL, a C1 control, a
 * line or paragraph separator, a bidirectional control, and each invalid
 * UTF-8 byte. Cuts only at a character boundary. Returns the length
 * written. The sanitizer every name aotperf writes goes through.
 */
AOTJIT_API size_t aotjit_sanitize_name(char *dst, size_t dstsz, const char *src,
			    size_t len);

#ifdef __cplusplus
}
#endif

#endif
