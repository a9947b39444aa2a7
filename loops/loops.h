/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_LOOPS_H
#define AOTPERF_LOOPS_H
/*
 * Basic blocks (cfg.c) and loops (find.c: natural loops, and branches
 * back to a block that does not dominate them) of a classified function, and
 * what each codegen lever would buy on the hottest loops: their executed
 * path modelled by llvm-mca on the recording CPU's model (model.c,
 * mcpu.c), once as compiled and once per lever applied (whatif.c).
 *
 * Blocks come from a second decode of the same bytes (decode/), which
 * gives branch targets and the jump-table entries an indirect jump
 * dispatches to; inline data is no block, and a block of trap-class
 * instructions only (classify/) is a trap block, never modelled.
 */
#include <stdint.h>
#include "../classify/classify.h"
#include "../cwasm/cwasm.h"
#include "../util/err.h"

struct lp_block {
	uint32_t first, end;	/* cls_func insns [first, end): no data entry inside */
	uint32_t *succ;		/* successor blocks */
	uint32_t nsucc;
	uint64_t samples;
	uint8_t trap;		/* only trap-class instructions (and their moves) */
	uint8_t reached;	/* from the entry */
};

/* The levers the what-if applies, in this order. */
enum lp_lever {
	LP_ZEXT_MOVE,		/* zero-extends removed */
	LP_FRAME,		/* frame loads become register moves, frame stores go */
	LP_BOUNDS_CHECK,	/* bounds compare and branch removed */
	LP_VMCTX_RELOAD,	/* vmctx reloads hoisted out of the loop */
	LP_DISPATCH,		/* br_table dispatch and call_indirect's checks: direct branches */
	LP__NLEVERS
};
const char *lp_lever__name(enum lp_lever l);

/* One llvm-mca run of a loop's path. */
struct lp_model_run {
	int ok;			/* ran and its numbers were read */
	double cycles_per_iter;
	uint32_t removed;	/* instructions the lever touched (0 for the base) */
	uint64_t touched_samples;	/* the samples on them */
	/* why the saving is not modelled (lp_loop__unmodelled), NULL: it is */
	const char *not_modelled;
};

struct lp_loop {
	uint32_t header;	/* block */
	uint32_t *blocks;	/* in layout order */
	uint32_t nblocks;
	uint32_t depth;		/* 1: outermost */
	int parent;		/* innermost enclosing loop, -1 none (index before sorting: see lp_func) */
	uint64_t samples;	/* in its blocks, nested loops' included */
	uint64_t self_samples;	/* in the blocks no nested loop holds: the order "hottest" */
	uint32_t static_insns;
	uint64_t cls_samples[CLS__COUNT];
	uint32_t cls_static[CLS__COUNT];
	/* the model (model.c); input NULL when the loop was not modelled */
	char *input;		/* the assembly given to llvm-mca for the loop as compiled */
	uint32_t npath;		/* instructions on the modelled path */
	char bottleneck[160];
	struct lp_model_run base, lever[LP__NLEVERS];
	/*
	 * The same with each load made to wait for the stores before it
	 * (llvm-mca -noalias=false: a core that forwards a stored frame slot
	 * instead of renaming it), for the frame lever's bound; only when
	 * lp_func.model_aliased asks and the frame lever touches the loop.
	 */
	struct lp_model_run aliased_base, aliased_frame;
};

/* How the loops were modelled (model.c): the same for every function of a report. */
struct lp_model_info {
	int asked;		/* a model was asked for (--func/--hot) */
	char tool[256];		/* llvm-mca's path, "" when none */
	char mcpu[32];
	char why[256];		/* why that -mcpu */
	char note[256];		/* why there is no model, or "" */
};

struct lp_func {
	enum cwasm_arch arch;
	struct lp_block *blocks;	/* in layout order */
	uint32_t nblocks;
	struct lp_loop *loops;		/* hottest first: self samples, then samples, then size */
	uint32_t nloops;
	uint32_t *block_of;		/* per cls insn: its block, UINT32_MAX for data */
	uint64_t total;			/* the function's samples */
	/*
	 * The frame lever's reach with a frame-attribution sidecar: per cls
	 * insn, 1 when a frame access must stay (the sidecar gives it another
	 * origin than an allocator spill, or does not list it); NULL: no
	 * sidecar, every frame access is the lever's.
	 */
	uint8_t *frame_keep;
	uint32_t frame_kept;		/* frame accesses kept so */
	/*
	 * Per cls insn, its part in a call_indirect (icall.c): LP_ICALL_CHECK
	 * for the table and signature checks and the table loads, LP_ICALL_CALL
	 * for the indirect call itself; NULL when the function has none.
	 */
	uint8_t *icall;
	const uint64_t *samples;	/* per cls insn (borrowed), NULL: static */
	struct lp_model_info model;
	/*
	 * Which loops to model (model.c): 0, the LP_MODEL_LOOPS hottest; else
	 * every loop with at least this many self samples (the lever table).
	 */
	uint64_t model_min_self;
	uint8_t model_every;		/* every loop (no recording: the lever table) */
	uint8_t model_aliased;		/* also the aliased_* runs */
};

/*
 * Blocks and loops of function func of m, decoded as f (classified from
 * the same bytes at base), weighed by samples (parallel to f->insns, NULL:
 * static).
 */
int lp_func__build(struct lp_func *out, const struct cwasm_module *m, uint32_t func,
		   uint64_t base, const struct cls_func *f, const uint64_t *samples,
		   struct ap_err *err);
/*
 * The same for code outside a core (another engine's, engines/): len bytes
 * at run-time address addr, decoded as f; what names it in errors.
 */
int lp_func__build_code(struct lp_func *out, const uint8_t *code, uint64_t len, uint64_t addr,
			const char *what, const struct cls_func *f, const uint64_t *samples,
			struct ap_err *err);
void lp_func__exit(struct lp_func *lf);
/* exit and free; NULL is fine */
void lp_func__delete(struct lp_func *lf);

enum { LP_ICALL_NONE, LP_ICALL_CHECK, LP_ICALL_CALL };

/*
 * Percent of loop l's cycles lever lv would save (whatif.c; 0 when not
 * modelled): 1 - cycles with the lever / cycles as compiled.
 */
double lp_loop__payoff(const struct lp_loop *l, int lv);

/*
 * Parts of a lever that the kernel pairs could not confirm on some CPU
 * (docs/levers.md): where a loop holds one, the loop's saving is "not
 * modelled" and stays out of the lever's payoff.
 */
enum lp_lever_part {
	LP_PART_NONE,
	LP_PART_BR_TABLE,		/* dispatch: a br_table's jump-table dispatch or compare chain */
	LP_PART_ICALL,			/* dispatch: call_indirect's checks, on some CPU models */
};

/*
 * The part of lever in loop l of lf (decoded as f) that is not modelled
 * on mcpu (LP_PART_NONE: all of it is), and why (a static string; whatif.c).
 */
enum lp_lever_part lp_loop__unmodelled(const struct lp_func *lf, const struct cls_func *f,
				       const struct lp_loop *l, int lever, const char *mcpu,
				       const char **why);
/*
 * Is block b on loop l's modelled path: no trap block, and sampled (when
 * anything was) or l's header, which every iteration runs (cpu-clock's
 * skid can leave a short header without a sample)?
 */
int lp_func__on_path(const struct lp_func *lf, const struct lp_loop *l, uint32_t b);

/* Does block b belong to loop l? */
int lp_loop__has(const struct lp_loop *l, uint32_t b);

#endif
