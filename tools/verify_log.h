/* vqhip --verify-log: re-runs the frames a JSON log names with the models,
 * extractor options, subsampling and precision it records, and compares
 * every value at the log's precision (docs/CLI.md). */
#ifndef VQHIP_TOOLS_VERIFY_LOG_H
#define VQHIP_TOOLS_VERIFY_LOG_H

#define VERIFY_MAX_SPECS 64

typedef struct VerifyPlan {
    const char *log;        /* the log to verify */
    char *model[VERIFY_MAX_SPECS], *feature[VERIFY_MAX_SPECS];
    unsigned n_model, n_feature;
    unsigned subsample, frames, precision;
    int backend;            /* VqBackend the log's run asked for */
    char rerun[64];         /* the re-run's own log (a temporary file) */
} VerifyPlan;

/* Reads the log's vqhip block into p. 0, or a message and an exit status
 * (cli_args.h). */
int verify_plan(VerifyPlan *p, const char *log);
/* Compares the re-run's log with the original: prints the mismatches and a
 * summary; 0 when every value matches, else CLI_EXIT_MISMATCH (or another
 * status when a log cannot be read). */
int verify_compare(const VerifyPlan *p);
/* Removes the temporary log and frees p's strings. */
void verify_free(VerifyPlan *p);

#endif
