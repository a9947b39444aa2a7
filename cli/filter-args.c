// SPDX-License-Identifier: MIT
#include "filter-args.h"

int filter_args__shared(int c)
{
	return c == FILTER_OPT_COMM || c == 'c' || c == FILTER_OPT_CPU || c == 'C' ||
	       c == FILTER_OPT_TIME;
}

int filter_args__option(struct attr_args *a, int c, const char *arg, struct ap_err *err)
{
	const char *opt;
	int rc;

	if (c != ATTR_OPT_PID && c != FILTER_OPT_TID && c != 'c' && c != 'C' &&
	    !filter_args__shared(c))
		return 0;
	if (!a->opts.filter && !(a->opts.filter = sample_filter__new()))
		return ap_err_nomem(err);
	switch (c) {
	case ATTR_OPT_PID:
		opt = "--pid";
		rc = sample_filter__add_pids(a->opts.filter, arg, err);
		break;
	case FILTER_OPT_TID:
		opt = "--tid";
		rc = sample_filter__add_tids(a->opts.filter, arg, err);
		break;
	case FILTER_OPT_COMM: case 'c':
		opt = "--comm";
		rc = sample_filter__add_comms(a->opts.filter, arg, err);
		break;
	case FILTER_OPT_CPU: case 'C':
		opt = "--cpu";
		rc = sample_filter__add_cpus(a->opts.filter, arg, err);
		break;
	default:
		opt = "--time";
		rc = sample_filter__set_time(a->opts.filter, arg, err);
		break;
	}
	return rc ? ap_err_prefix(err, "%s: ", opt) : 1;
}

void filter_args__finish(struct attr_args *a)
{
	uint32_t n;
	const uint32_t *pids = sample_filter__pids(a->opts.filter, &n);

	/* one process: its mappings alone are candidates, as --pid always did */
	a->opts.pid = n == 1 ? (int)pids[0] : -1;
}

int filter_args__track_comms(struct attr_args *a, struct ap_err *err)
{
	if (!a->opts.filter && !(a->opts.filter = sample_filter__new()))
		return ap_err_nomem(err);
	sample_filter__track_comms(a->opts.filter);
	return 0;
}

void filter_args__exit(struct attr_args *a)
{
	sample_filter__delete(a->opts.filter);
	a->opts.filter = NULL;
}
