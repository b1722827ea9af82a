#include "base/clock.h"
#include "gpu_open.h"

static void open_now(VqGpuOpen *o)
{
    double t = vq_now();
    o->err = vq_gpu_open(&o->gpu, o->device, o->use_current, &o->why);
    o->seconds = vq_now() - t;
}

static void *open_main(void *arg)
{
    VqGpuOpen *o = arg;
    open_now(o);
    atomic_store(&o->done, true);
    return NULL;
}

void vq_gpu_open_begin(VqGpuOpen *o, int device, int use_current,
                       bool async)
{
    o->device = device;
    o->use_current = use_current;
    o->gpu = NULL;
    o->err = 0;
    vq_err_clear(&o->why);
    atomic_init(&o->done, false);
    o->pending = async && !pthread_create(&o->thread, NULL, open_main, o);
    if (!o->pending)
        open_now(o);
}

bool vq_gpu_open_pending(const VqGpuOpen *o)
{
    return o->pending;
}

bool vq_gpu_open_finished(VqGpuOpen *o)
{
    return o->pending && atomic_load(&o->done);
}

void vq_gpu_open_join(VqGpuOpen *o)
{
    if (!o->pending)
        return;
    pthread_join(o->thread, NULL);
    o->pending = false;
}
