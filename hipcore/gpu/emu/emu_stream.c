/*
 * Streams and events of the emulated device.
 *
 * Work is run as late as the API allows, which is what exposes missing
 * synchronisation: a stream's copies, memsets and kernels wait in its queue
 * until something needs them done (the stream or an event after them is
 * synchronised or queried, a copy to pageable memory, hipFree, the null
 * stream), and then run in order on the calling thread. A wait on an event
 * runs the event's stream up to the event first. Copies from pageable
 * memory read it at once (the runtime stages them); copies to pageable
 * memory wait for the stream and complete before returning; copies from
 * and to pinned memory happen when the queue reaches them. A query of an
 * event whose work is pending answers "not ready" once, then runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

typedef enum OpKind { OP_KERNEL, OP_COPY, OP_MEMSET, OP_WAIT } OpKind;

typedef struct Op {
    struct Op *next;
    OpKind kind;
    uint64_t seq;
    union {
        struct {
            VqEmuDim grid, block;
            size_t shm;
            VqEmuKernel k;
        } kernel;
        struct {
            char *dst;
            const char *src;
            size_t dpitch, spitch, width, height;
            char *owned; /* the staged source of a pageable copy */
        } copy;
        struct {
            void *dst;
            int value;
            size_t size;
        } memset;
        struct {
            struct VqEmuStream *stream; /* NULL: destroyed, done */
            uint64_t seq;
        } wait;
    } u;
} Op;

struct VqEmuStream {
    struct VqEmuStream *next;
    Op *head, *tail;
    uint64_t enqueued, done;
    bool running;
};

struct VqEmuEvent {
    struct VqEmuEvent *next;
    struct VqEmuStream *stream; /* NULL: never recorded, or done */
    uint64_t seq;
    bool answered_not_ready;
};

static struct VqEmuStream *streams;
static struct VqEmuEvent *events;

static void op_free(Op *op)
{
    if (op->kind == OP_KERNEL && op->u.kernel.k.release)
        op->u.kernel.k.release(op->u.kernel.k.closure);
    if (op->kind == OP_COPY)
        free(op->u.copy.owned);
    free(op);
}

static hipError_t run_until(struct VqEmuStream *s, uint64_t seq);

static hipError_t op_run(Op *op)
{
    switch (op->kind) {
    case OP_KERNEL:
        return vq_emu_run_grid(op->u.kernel.grid, op->u.kernel.block,
                               op->u.kernel.shm, &op->u.kernel.k);
    case OP_COPY:
        for (size_t y = 0; y < op->u.copy.height; y++)
            memmove(op->u.copy.dst + y * op->u.copy.dpitch,
                    op->u.copy.src + y * op->u.copy.spitch, op->u.copy.width);
        return hipSuccess;
    case OP_MEMSET:
        memset(op->u.memset.dst, op->u.memset.value, op->u.memset.size);
        return hipSuccess;
    case OP_WAIT:
        return op->u.wait.stream ? run_until(op->u.wait.stream, op->u.wait.seq)
                                 : hipSuccess;
    }
    return hipErrorInvalidValue;
}

/* Runs s's queue up to and including the op numbered seq. */
static hipError_t run_until(struct VqEmuStream *s, uint64_t seq)
{
    if (s->running) {
        vq_emu_fail_device(hipErrorLaunchFailure, "streams wait on each "
                           "other's events in a cycle (a deadlock on a real "
                           "device)");
        return hipErrorLaunchFailure;
    }
    s->running = true;
    hipError_t e = hipSuccess;
    while (s->done < seq && s->head) {
        Op *op = s->head;
        s->head = op->next;
        if (!s->head)
            s->tail = NULL;
        if (!vq_emu_sticky())
            e = op_run(op);
        s->done = op->seq;
        op_free(op);
        if (vq_emu_sticky())
            e = vq_emu_sticky();
    }
    s->running = false;
    return e;
}

hipError_t vq_emu_flush_all(void)
{
    hipError_t e = hipSuccess;
    for (struct VqEmuStream *s = streams; s; s = s->next) {
        hipError_t r = run_until(s, s->enqueued);
        if (!e)
            e = r;
    }
    return e ? e : vq_emu_sticky();
}

static bool stream_known(hipStream_t s)
{
    for (struct VqEmuStream *t = streams; t; t = t->next)
        if (t == s)
            return true;
    return false;
}

/* Queues op on s (the null stream: everything before it runs, then it).
 * Takes op in every case. */
static hipError_t enqueue(hipStream_t s, Op *op)
{
    vq_emu_lock();
    hipError_t e = vq_emu_sticky();
    if (!e && s && !stream_known(s))
        e = hipErrorInvalidHandle;
    if (e) {
        op_free(op);
    } else if (!s) {
        e = vq_emu_flush_all();
        if (!e)
            e = op_run(op);
        op_free(op);
    } else {
        op->seq = ++s->enqueued;
        if (s->tail)
            s->tail->next = op;
        else
            s->head = op;
        s->tail = op;
    }
    vq_emu_unlock();
    return vq_emu_set_error(e);
}

static Op *op_new(OpKind kind)
{
    Op *op = calloc(1, sizeof(*op));
    if (op)
        op->kind = kind;
    return op;
}

hipError_t vq_emu_enqueue_kernel(hipStream_t s, VqEmuDim grid, VqEmuDim block,
                                 size_t shm, VqEmuKernel k)
{
    Op *op = op_new(OP_KERNEL);
    if (!op) {
        k.release(k.closure);
        return vq_emu_set_error(hipErrorOutOfMemory);
    }
    op->u.kernel.grid = grid;
    op->u.kernel.block = block;
    op->u.kernel.shm = shm;
    op->u.kernel.k = k;
    return enqueue(s, op);
}

hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t s)
{
    size_t avail;
    bool dev;
    vq_emu_mem_kind(dst, &avail, &dev);
    if (!dev || size > avail)
        return vq_emu_set_error(hipErrorInvalidValue);
    Op *op = op_new(OP_MEMSET);
    if (!op)
        return vq_emu_set_error(hipErrorOutOfMemory);
    op->u.memset.dst = dst;
    op->u.memset.value = value;
    op->u.memset.size = size;
    return enqueue(s, op);
}

/* Whether p .. p + (height - 1) * pitch + width lies in memory of the kind
 * the copy's direction says. */
static bool side_ok(const void *p, size_t pitch, size_t width, size_t height,
                    bool device, VqEmuMemKind *kind)
{
    size_t avail;
    bool dev;
    *kind = vq_emu_mem_kind(p, &avail, &dev);
    if (device != dev)
        return false;
    if (*kind == VQ_EMU_PAGEABLE || !height)
        return true;
    return (height - 1) * pitch + width <= avail;
}

hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t s)
{
    if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToHost &&
        kind != hipMemcpyDeviceToDevice)
        return vq_emu_set_error(hipErrorInvalidValue);
    VqEmuMemKind dk, sk;
    bool dev_dst = kind != hipMemcpyDeviceToHost;
    bool dev_src = kind != hipMemcpyHostToDevice;
    if ((height > 1 && (dpitch < width || spitch < width)) ||
        !side_ok(dst, dpitch, width, height, dev_dst, &dk) ||
        !side_ok(src, spitch, width, height, dev_src, &sk))
        return vq_emu_set_error(hipErrorInvalidValue);
    Op *op = op_new(OP_COPY);
    if (!op)
        return vq_emu_set_error(hipErrorOutOfMemory);
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.dpitch = dpitch;
    op->u.copy.spitch = spitch;
    op->u.copy.width = width;
    op->u.copy.height = height;
    if (sk == VQ_EMU_PAGEABLE && height && width) {
        /* staged now: the caller may reuse its buffer at once */
        char *copy = malloc(width * height);
        if (!copy) {
            free(op);
            return vq_emu_set_error(hipErrorOutOfMemory);
        }
        for (size_t y = 0; y < height; y++)
            memcpy(copy + y * width, (const char *)src + y * spitch, width);
        op->u.copy.owned = copy;
        op->u.copy.src = copy;
        op->u.copy.spitch = width;
    }
    hipError_t e = enqueue(s, op);
    if (!e && dk == VQ_EMU_PAGEABLE && s) {
        /* done when the call returns */
        vq_emu_lock();
        e = vq_emu_set_error(run_until(s, s->enqueued));
        vq_emu_unlock();
    }
    return e;
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size,
                          hipMemcpyKind kind, hipStream_t s)
{
    return hipMemcpy2DAsync(dst, size, src, size, size, 1, kind, s);
}

hipError_t hipStreamCreateWithFlags(hipStream_t *out, unsigned flags)
{
    (void)flags;
    *out = NULL;
    hipError_t e = vq_emu_sticky();
    if (!e && !vq_emu_settings()->present)
        e = hipErrorNoDevice;
    if (e)
        return vq_emu_set_error(e);
    struct VqEmuStream *s = calloc(1, sizeof(*s));
    if (!s)
        return vq_emu_set_error(hipErrorOutOfMemory);
    vq_emu_lock();
    s->next = streams;
    streams = s;
    vq_emu_unlock();
    *out = s;
    return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t s)
{
    vq_emu_lock();
    hipError_t e = !s ? vq_emu_flush_all()
                   : stream_known(s) ? run_until(s, s->enqueued)
                                     : hipErrorInvalidHandle;
    if (!e)
        e = vq_emu_sticky();
    vq_emu_unlock();
    return vq_emu_set_error(e);
}

hipError_t hipStreamDestroy(hipStream_t s)
{
    vq_emu_lock();
    if (!stream_known(s)) {
        vq_emu_unlock();
        return vq_emu_set_error(hipErrorInvalidHandle);
    }
    hipError_t e = run_until(s, s->enqueued);
    for (struct VqEmuStream **ps = &streams; *ps; ps = &(*ps)->next)
        if (*ps == s) {
            *ps = s->next;
            break;
        }
    /* what referred to it refers to work that is done */
    for (struct VqEmuEvent *ev = events; ev; ev = ev->next)
        if (ev->stream == s)
            ev->stream = NULL;
    for (struct VqEmuStream *t = streams; t; t = t->next)
        for (Op *op = t->head; op; op = op->next)
            if (op->kind == OP_WAIT && op->u.wait.stream == s)
                op->u.wait.stream = NULL;
    while (s->head) {
        Op *op = s->head;
        s->head = op->next;
        op_free(op);
    }
    free(s);
    vq_emu_unlock();
    return vq_emu_set_error(e);
}

hipError_t hipEventCreateWithFlags(hipEvent_t *out, unsigned flags)
{
    (void)flags;
    struct VqEmuEvent *ev = calloc(1, sizeof(*ev));
    *out = ev;
    if (!ev)
        return vq_emu_set_error(hipErrorOutOfMemory);
    vq_emu_lock();
    ev->next = events;
    events = ev;
    vq_emu_unlock();
    return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t ev)
{
    vq_emu_lock();
    for (struct VqEmuEvent **pe = &events; *pe; pe = &(*pe)->next)
        if (*pe == ev) {
            *pe = ev->next;
            free(ev);
            vq_emu_unlock();
            return hipSuccess;
        }
    vq_emu_unlock();
    return vq_emu_set_error(hipErrorInvalidHandle);
}

hipError_t hipEventRecord(hipEvent_t ev, hipStream_t s)
{
    vq_emu_lock();
    hipError_t e = vq_emu_sticky();
    if (!e && s && !stream_known(s))
        e = hipErrorInvalidHandle;
    if (!e && !s)
        e = vq_emu_flush_all();
    if (!e) {
        /* the event completes when s has run what is queued now */
        ev->stream = s && s->done < s->enqueued ? s : NULL;
        ev->seq = s ? s->enqueued : 0;
        ev->answered_not_ready = false;
    }
    vq_emu_unlock();
    return vq_emu_set_error(e);
}

static bool event_pending(const struct VqEmuEvent *ev)
{
    return ev->stream && ev->stream->done < ev->seq;
}

hipError_t hipEventSynchronize(hipEvent_t ev)
{
    vq_emu_lock();
    hipError_t e = event_pending(ev) ? run_until(ev->stream, ev->seq)
                                     : vq_emu_sticky();
    vq_emu_unlock();
    return vq_emu_set_error(e);
}

hipError_t hipEventQuery(hipEvent_t ev)
{
    vq_emu_lock();
    hipError_t e = vq_emu_sticky();
    if (!e && event_pending(ev)) {
        if (!ev->answered_not_ready) {
            ev->answered_not_ready = true;
            e = hipErrorNotReady;
        } else {
            e = run_until(ev->stream, ev->seq);
        }
    }
    vq_emu_unlock();
    return e == hipErrorNotReady ? e : vq_emu_set_error(e);
}

hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t ev, unsigned flags)
{
    (void)flags;
    vq_emu_lock();
    /* a wait on the stream's own earlier work: its order already holds */
    bool pending = event_pending(ev) && ev->stream != s;
    struct VqEmuStream *on = ev->stream;
    uint64_t seq = ev->seq;
    vq_emu_unlock();
    if (!pending)
        return vq_emu_sticky() ? vq_emu_set_error(vq_emu_sticky()) : hipSuccess;
    Op *op = op_new(OP_WAIT);
    if (!op)
        return vq_emu_set_error(hipErrorOutOfMemory);
    op->u.wait.stream = on;
    op->u.wait.seq = seq;
    return enqueue(s, op);
}
