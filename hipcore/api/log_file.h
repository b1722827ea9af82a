/* A log's temporary file beside its final name (log_file.c). */
#ifndef VQHIP_API_LOG_FILE_H
#define VQHIP_API_LOG_FILE_H

#include "vqhip.h"

/* Creates "<path>.vqtmp-<random>" exclusively, never following a link:
 * the file descriptor and *tmp (malloc'd), or -1 with *err_no set. */
int vq_log_tmp_create(const char *path, char **tmp, int *err_no);

#endif
