/*
 * vqhip plan's submit files for batch engines (docs/SCALE.md): a Slurm job
 * array and its merge job, a GNU parallel script, a Kubernetes Indexed
 * Job, an AWS Batch array job. They only call `vqhip run-item` and
 * `vqhip merge`: every rule (the item's index, completeness, retries on
 * exit 75) is the verbs', the engine only schedules.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"

/* What the files name; the paths absolute, checked by safe(). */
typedef struct Ctx {
    const CatEngines *e;
    const CatItem *items;
    unsigned n;
    char dir[PATH_MAX], cwd[PATH_MAX], exe[PATH_MAX];
    char *err;
    size_t errsz;
} Ctx;

/* Paths go unquoted into #SBATCH lines (not a shell: no quoting there) and
 * into sbatch's %-patterns; JSON strings too: a small set of characters. */
static int safe(Ctx *c, const char *what, const char *s)
{
    for (const char *p = s; *p; p++)
        if (strchr(" \t\n\r'\"\\%$`;&|<>()*?[]{}#!", *p) ||
            (unsigned char)*p < 32) {
            snprintf(c->err, c->errsz, "%s '%.300s': the engine files need "
                     "a path without spaces, quotes, '%%' or shell "
                     "characters", what, s);
            return -1;
        }
    return 0;
}

/* A shell word: single quotes, a quote inside written '\'' */
static void sq(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

static FILE *open_out(Ctx *c, const char *sub, const char *name, int exec)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s%s%s", c->dir, sub, "");
    if (*sub && mkdir(path, 0777) && errno != EEXIST)
        goto bad;
    snprintf(path, sizeof(path), "%s%s/%s", c->dir, sub, name);
    FILE *f = fopen(path, "w");
    if (!f)
        goto bad;
    if (exec)
        chmod(path, 0755);
    return f;
bad:
    snprintf(c->err, c->errsz, "cannot write '%.400s': %s", path,
             strerror(errno));
    return NULL;
}

static int close_out(Ctx *c, FILE *f, const char *name)
{
    if (ferror(f) | fclose(f)) {
        snprintf(c->err, c->errsz, "cannot write %s", name);
        return -1;
    }
    return 0;
}

/* Merges every title (merge checks completeness, consistency and
 * duplicates itself); before that, names the items without a part and
 * what runs them again (`again`, printf'ed with the indices). Ends with
 * merge's worst status. Logs: DIR/logs/<the manifest's log name>. */
static void merge_lines(Ctx *c, FILE *f, const char *vqhip, const char *dir,
                        const char *again, int no75)
{
    fprintf(f, "D=%s\nst=0\nmissing=\ni=0\n", dir);
    fprintf(f, "while [ $i -lt %u ]; do\n"
            "    [ -f \"$(printf '%%s/parts/%%04u.part' \"$D\" $i)\" ] ||\n"
            "        missing=\"$missing${missing:+,}$i\"\n"
            "    i=$((i + 1))\ndone\n", c->n);
    fprintf(f, "if [ -n \"$missing\" ]; then\n"
            "    echo \"vqhip: items without a part: $missing; run them "
            "again with: %s\" >&2\nfi\n", again);
    for (unsigned i = 0; i < c->n; i++) {
        if (i && !strcmp(c->items[i].title, c->items[i - 1].title))
            continue;
        fputs("out=\"$D/logs/\"", f);
        sq(f, c->items[i].log);
        fprintf(f, "\nmkdir -p \"$(dirname \"$out\")\"\n%s merge \"$D\" "
                "--title ", vqhip);
        sq(f, c->items[i].title);
        fputs(" --log \"$out\" || st=$?\n", f);
    }
    /* RequeueExit=75 would requeue the merge job in vain: after afterany,
     * a missing part is a task that failed for good */
    fputs(no75 ? "[ $st -ne 75 ] || st=1\nexit $st\n" : "exit $st\n", f);
}

static int slurm(Ctx *c)
{
    const CatEngines *e = c->e;
    const char *opt[] = { e->gres, e->partition, e->time };
    for (unsigned i = 0; i < 3; i++)
        if (opt[i] && (!*opt[i] || strpbrk(opt[i], " \t\n\r#"))) {
            snprintf(c->err, c->errsz, "'%.200s': an #SBATCH value cannot "
                     "be empty or hold spaces", opt[i]);
            return -1;
        }
    FILE *f = open_out(c, "/slurm", "array.sbatch", 0);
    if (!f)
        return -1;
    char logs[PATH_MAX + 32];
    snprintf(logs, sizeof(logs), "%s/slurm/logs", c->dir);
    if (mkdir(logs, 0777) && errno != EEXIST) {
        fclose(f);
        snprintf(c->err, c->errsz, "cannot make '%.400s'", logs);
        return -1;
    }
    fprintf(f, "#!/bin/sh\n# vqhip plan --slurm: one array task per item of "
            "%s/items.tsv\n", c->dir);
    fprintf(f, "#SBATCH --job-name=vqhip-items\n#SBATCH --array=0-%u",
            c->n - 1);
    if (e->throttle)
        fprintf(f, "%%%u", e->throttle);
    /* a task requeued (RequeueExit=75, scontrol requeue, a node lost)
     * appends to its own files */
    fprintf(f, "\n#SBATCH --requeue\n#SBATCH --chdir=%s\n"
            "#SBATCH --output=%s/%%A_%%a.out\n#SBATCH --error=%s/%%A_%%a.err\n"
            "#SBATCH --open-mode=append\n", c->cwd, logs, logs);
    if (e->gpu)
        fprintf(f, "#SBATCH --gres=%s\n", e->gres ? e->gres : "gpu:1");
    if (e->partition)
        fprintf(f, "#SBATCH --partition=%s\n", e->partition);
    if (e->time)
        fprintf(f, "#SBATCH --time=%s\n", e->time);
    fprintf(f, "echo \"vqhip item $SLURM_ARRAY_TASK_ID: attempt "
            "$((${SLURM_RESTART_COUNT:-0} + 1)) on $(hostname)\" >&2\n"
            "# exit 75: transient; RequeueExit=75 in slurm.conf requeues it\n"
            "exec %s run-item %s\n", c->exe, c->dir);
    if (close_out(c, f, "array.sbatch") ||
        !(f = open_out(c, "/slurm", "merge.sbatch", 0)))
        return -1;
    fprintf(f, "#!/bin/sh\n# vqhip plan --slurm: every title's log, after "
            "the array (afterany: merge checks completeness)\n"
            "#SBATCH --job-name=vqhip-merge\n#SBATCH --chdir=%s\n"
            "#SBATCH --output=%s/merge-%%j.out\n", c->cwd, logs);
    if (e->partition)
        fprintf(f, "#SBATCH --partition=%s\n", e->partition);
    if (e->time)
        fprintf(f, "#SBATCH --time=%s\n", e->time);
    char again[PATH_MAX * 2 + 128];
    snprintf(again, sizeof(again), "sbatch --array=$missing %s/slurm/"
             "array.sbatch, then sbatch %s/slurm/merge.sbatch", c->dir,
             c->dir);
    merge_lines(c, f, c->exe, c->dir, again, 1);
    if (close_out(c, f, "merge.sbatch") ||
        !(f = open_out(c, "/slurm", "submit.sh", 1)))
        return -1;
    /* afterany, not afterok: an array's afterok is never satisfied once a
     * task failed, even if a retry then succeeded */
    fprintf(f, "#!/bin/sh\n# vqhip plan --slurm: the items' array, then the "
            "merge once every task has ended\nset -eu\n"
            "array=$(sbatch --parsable \"$@\" %s/slurm/array.sbatch)\n"
            "array=${array%%%%;*}\n"
            "merge=$(sbatch --parsable --dependency=afterany:$array "
            "%s/slurm/merge.sbatch)\nmerge=${merge%%%%;*}\n"
            "echo \"items: job array $array; merge: job $merge\"\n",
            c->dir, c->dir);
    return close_out(c, f, "submit.sh");
}

static int parallel(Ctx *c)
{
    FILE *f = open_out(c, "", "parallel.sh", 1);
    if (!f)
        return -1;
    char joblog[PATH_MAX + 16];
    snprintf(joblog, sizeof(joblog), "%s/joblog", c->dir);
    remove(joblog);   /* a joblog of an earlier plan would skip items */
    fprintf(f, "#!/bin/sh\n# vqhip plan --parallel: every item with GNU "
            "parallel on this machine, then every title's log.\n"
            "# Run again to rerun only the failed items (--resume-failed).\n"
            "cd %s || exit 75\n"
            "seq 0 %u | parallel --joblog %s --resume-failed --retries 3 "
            "%s run-item %s --index {}\n", c->cwd, c->n - 1, joblog, c->exe,
            c->dir);
    char again[PATH_MAX + 32];
    snprintf(again, sizeof(again), "sh %s/parallel.sh", c->dir);
    merge_lines(c, f, c->exe, c->dir, again, 0);
    return close_out(c, f, "parallel.sh");
}

/* JSON strings here are safe() paths or the user's image/claim/resource
 * names, refused when they hold a quote or a backslash. */
static int k8s(Ctx *c)
{
    const CatEngines *e = c->e;
    if (!e->image || !e->claim) {
        snprintf(c->err, c->errsz, "--k8s needs --image IMAGE (with vqhip in "
                 "its PATH) and --claim PVC (the volume that holds %s and "
                 "the inputs, mounted at %s)", c->dir, c->cwd);
        return -1;
    }
    const char *gpu = !e->gpu ? NULL
                      : e->gpu_resource ? e->gpu_resource : "amd.com/gpu";
    const char *names[] = { e->image, e->claim, gpu };
    for (unsigned i = 0; i < 3; i++)
        if (names[i] && strpbrk(names[i], "\"\\\n\t ")) {
            snprintf(c->err, c->errsz, "'%.200s': no quotes, backslashes or "
                     "spaces", names[i]);
            return -1;
        }
    static const char *const what[2] = { "items", "merge" };
    for (unsigned k = 0; k < 2; k++) {
        char name[32];
        snprintf(name, sizeof(name), "%s-job.json", what[k]);
        FILE *f = open_out(c, "/k8s", name, 0);
        if (!f)
            return -1;
        fprintf(f, "{\n  \"apiVersion\": \"batch/v1\",\n  \"kind\": \"Job\",\n"
                "  \"metadata\": { \"generateName\": \"vqhip-%s-\", "
                "\"labels\": { \"app\": \"vqhip\" } },\n  \"spec\": {\n",
                what[k]);
        if (!k) {
            unsigned par = e->parallelism ? e->parallelism : c->n;
            /* 64 usage, 65 bad input, 70 scoring failed: retrying cannot
             * help; 75 and anything else (a pod evicted) are retried */
            fprintf(f, "    \"completionMode\": \"Indexed\",\n"
                    "    \"completions\": %u,\n    \"parallelism\": %u,\n"
                    "    \"backoffLimitPerIndex\": 3,\n"
                    "    \"maxFailedIndexes\": %u,\n"
                    "    \"podFailurePolicy\": { \"rules\": [ { \"action\": "
                    "\"FailIndex\", \"onExitCodes\": { \"containerName\": "
                    "\"vqhip\", \"operator\": \"In\", \"values\": [64, 65, 70]"
                    " } } ] },\n", c->n, par < c->n ? par : c->n, c->n);
        } else {
            fprintf(f, "    \"backoffLimit\": 0,\n");
        }
        fprintf(f, "    \"template\": {\n      \"spec\": {\n"
                "        \"restartPolicy\": \"Never\",\n"
                "        \"containers\": [ {\n          \"name\": \"vqhip\",\n"
                "          \"image\": \"%s\",\n          \"workingDir\": "
                "\"%s\",\n", e->image, c->cwd);
        if (!k)
            fprintf(f, "          \"command\": [\"vqhip\", \"run-item\", "
                    "\"%s\"],\n", c->dir);
        else
            fprintf(f, "          \"command\": [\"sh\", \"%s/k8s/merge.sh\"],"
                    "\n", c->dir);
        if (!k && gpu)
            fprintf(f, "          \"resources\": { \"limits\": { \"%s\": 1 } "
                    "},\n", gpu);
        fprintf(f, "          \"volumeMounts\": [ { \"name\": \"data\", "
                "\"mountPath\": \"%s\" } ]\n        } ],\n"
                "        \"volumes\": [ { \"name\": \"data\", "
                "\"persistentVolumeClaim\": { \"claimName\": \"%s\" } } ]\n"
                "      }\n    }\n  }\n}\n", c->cwd, e->claim);
        if (close_out(c, f, name))
            return -1;
    }
    FILE *f = open_out(c, "/k8s", "merge.sh", 1);
    if (!f)
        return -1;
    fputs("#!/bin/sh\n# the merge job's command (vqhip from the image)\n", f);
    merge_lines(c, f, "vqhip", c->dir, "kubectl create -f a Job of those "
                "indexes (spec.completionMode Indexed), then the merge job", 0);
    return close_out(c, f, "merge.sh");
}

static int aws(Ctx *c)
{
    const CatEngines *e = c->e;
    if (!e->image) {
        snprintf(c->err, c->errsz, "--aws-batch needs --image IMAGE (with "
                 "vqhip in its PATH; the job's host mounts %s at the same "
                 "path)", c->cwd);
        return -1;
    }
    if (c->n < 2) {
        snprintf(c->err, c->errsz, "an AWS Batch array job has 2 to 10000 "
                 "children: a plan of one item is one job (run-item --index "
                 "0)");
        return -1;
    }
    if (strpbrk(e->image, "\"\\\n\t ")) {
        snprintf(c->err, c->errsz, "'%.200s': no quotes or spaces", e->image);
        return -1;
    }
    FILE *f = open_out(c, "/aws-batch", "job-definition.json", 0);
    if (!f)
        return -1;
    /* evaluateOnExit: the first rule that matches decides; 75 retried,
     * the permanent codes not; a host or spot loss ("Host EC2*") retried */
    fprintf(f, "{\n  \"jobDefinitionName\": \"vqhip-items\",\n"
            "  \"type\": \"container\",\n"
            "  \"retryStrategy\": {\n    \"attempts\": 4,\n"
            "    \"evaluateOnExit\": [\n"
            "      { \"onExitCode\": \"75\", \"action\": \"RETRY\" },\n"
            "      { \"onStatusReason\": \"Host EC2*\", \"action\": \"RETRY\" },\n"
            "      { \"onReason\": \"*\", \"action\": \"EXIT\" }\n    ]\n  },\n"
            "  \"containerProperties\": {\n    \"image\": \"%s\",\n"
            "    \"command\": [\"vqhip\", \"run-item\", \"%s\"],\n"
            "    \"resourceRequirements\": [\n"
            "      { \"type\": \"VCPU\", \"value\": \"2\" },\n"
            "      { \"type\": \"MEMORY\", \"value\": \"4096\" }%s\n    ],\n"
            "    \"volumes\": [ { \"name\": \"data\", \"host\": { "
            "\"sourcePath\": \"%s\" } } ],\n"
            "    \"mountPoints\": [ { \"sourceVolume\": \"data\", "
            "\"containerPath\": \"%s\" } ]\n  }\n}\n", e->image, c->dir,
            e->gpu ? ",\n      { \"type\": \"GPU\", \"value\": \"1\" }"
                            : "", c->cwd, c->cwd);
    if (close_out(c, f, "job-definition.json") ||
        !(f = open_out(c, "/aws-batch", "submit-job.json", 0)))
        return -1;
    fprintf(f, "{\n  \"jobName\": \"vqhip-items\",\n"
            "  \"jobDefinition\": \"vqhip-items\",\n"
            "  \"jobQueue\": \"%s\",\n"
            "  \"arrayProperties\": { \"size\": %u }\n}\n",
            e->queue ? e->queue : "vqhip", c->n);
    return close_out(c, f, "submit-job.json");
}

int cat_engines_write(const char *dir, const CatEngines *e, char *err,
                      size_t errsz)
{
    Ctx c = { .e = e, .err = err, .errsz = errsz };
    if (!e->slurm && !e->parallel && !e->k8s && !e->aws)
        return 0;
    CatItem *items = NULL;
    if (cat_items_read(dir, &items, &c.n, err, errsz))
        return -1;
    c.items = items;
    ssize_t len = readlink("/proc/self/exe", c.exe, sizeof(c.exe) - 1);
    int st = 0;
    if (!c.n) {
        snprintf(err, errsz, "no items");
        st = -1;
    } else if (!realpath(dir, c.dir) || !getcwd(c.cwd, sizeof(c.cwd)) ||
               len <= 0) {
        snprintf(err, errsz, "cannot resolve '%.300s', the working folder "
                 "or vqhip's own path: %s", dir, strerror(errno));
        st = -1;
    } else if (c.exe[len] = '\0', e->vqhip) {
        snprintf(c.exe, sizeof(c.exe), "%s", e->vqhip);
    }
    if (!st)
        st = safe(&c, "the plan's folder", c.dir) ||
             safe(&c, "the working folder", c.cwd) ||
             safe(&c, "vqhip's path", c.exe) ||
             (e->slurm && slurm(&c)) || (e->parallel && parallel(&c)) ||
             (e->k8s && k8s(&c)) || (e->aws && aws(&c));
    free(items);
    return st ? -1 : 0;
}
