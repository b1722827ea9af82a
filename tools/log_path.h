#ifndef VQHIP_TOOLS_LOG_PATH_H
#define VQHIP_TOOLS_LOG_PATH_H

/* The log can be written: its folder takes a new file (checked before the
 * run, not after it); 0, or -1 with a message on stderr. */
int check_log_path(const char *path);

#endif
