// SPDX-License-Identifier: MIT
/* Static validation of a container + sidecar, and the identity block it reports. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

void frames__identity(const struct frames *fr, struct frames_identity *id)
{
	memset(id, 0, sizeof(*id));
	snprintf(id->schema, sizeof(id->schema), "%s", FRAMES_SCHEMA);
	id->schema_version = fr->schema_version;
	snprintf(id->compiler_build_id, sizeof(id->compiler_build_id), "%s", fr->compiler_build_id);
	memcpy(id->module_text_sha256, fr->module_text_sha256, sizeof(id->module_text_sha256));
	memcpy(id->normalized_code_sha256, fr->normalized_code_sha256,
	       sizeof(id->normalized_code_sha256));
	id->module = fr->module;
}

int frames__validate(const struct cwasm_module *mod, uint32_t local_func, const char *path,
		     struct frames_identity *id, struct ap_err *err)
{
	struct frames *fr;

	if (frames__read(path, mod, local_func, &fr, err))
		return -1;
	if (id)
		frames__identity(fr, id);
	frames__delete(fr);
	return 0;
}
