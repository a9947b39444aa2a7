/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_FILE_H
#define AOTPERF_CWASM_FILE_H

/*
 * Reading an input file whole, for cwasm/ only (a shared util/ helper will
 * replace it). Only a regular file is read: a FIFO or a device would block
 * or never end, so it is refused after open(O_NONBLOCK) and fstat(),
 * before any read. Errors name the file.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

/* Read PATH, at most MAX bytes (WHAT names it in the size message: "a .cwasm"). */
int cwasm_file__read(const char *path, size_t max, const char *what, uint8_t **out,
		     size_t *len, struct ap_err *err);

#endif
