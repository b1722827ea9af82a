/*
 * Fibers for the emulated device's threads. On x86-64 a switch saves the
 * callee-saved registers on the stack and changes stacks (no system call,
 * which glibc's swapcontext makes to save the signal mask); the SSE and x87
 * control words are not switched: nothing in a kernel changes them, so
 * every fiber runs with the launching thread's. Elsewhere ucontext. A slot holds what a switch needs to
 * come back: a stack pointer (x86-64) or a ucontext (elsewhere).
 */
#include <stdint.h>
#include <stdlib.h>

#include "emu_internal.h"

#if defined(__x86_64__) && !defined(VQ_EMU_UCONTEXT)

void vq_emu_fiber_switch(void **from, void *to);
void vq_emu_fiber_entry(void);

/* vq_emu_fiber_switch(from = rdi, to = rsi). A stack prepared by
 * vq_emu_fiber_init holds, from its saved stack pointer up: r15, r14,
 * r13 (fn), r12 (arg), rbx, rbp, then the address of
 * vq_emu_fiber_entry, which the ret jumps to with rsp 16-byte aligned, so
 * that its call gives fn the alignment of a called function. */
__asm__(".text\n"
        ".globl vq_emu_fiber_switch\n"
        ".hidden vq_emu_fiber_switch\n"
        ".type vq_emu_fiber_switch,@function\n"
        "vq_emu_fiber_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size vq_emu_fiber_switch, .-vq_emu_fiber_switch\n"
        ".globl vq_emu_fiber_entry\n"
        ".hidden vq_emu_fiber_entry\n"
        ".type vq_emu_fiber_entry,@function\n"
        "vq_emu_fiber_entry:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size vq_emu_fiber_entry, .-vq_emu_fiber_entry\n");

void *vq_emu_fiber_init(void *stack, size_t size, void (*fn)(void *), void *arg)
{
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    *--sp = (uint64_t)(uintptr_t)vq_emu_fiber_entry;
    *--sp = 0;                         /* rbp */
    *--sp = 0;                         /* rbx */
    *--sp = (uint64_t)(uintptr_t)arg;  /* r12 */
    *--sp = (uint64_t)(uintptr_t)fn;   /* r13 */
    *--sp = 0;                         /* r14 */
    *--sp = 0;                         /* r15 */
    return sp;
}

void *vq_emu_fiber_main_slot(void) { return NULL; }

#else

#include <ucontext.h>

static void fiber_start(unsigned fh, unsigned fl, unsigned ah, unsigned al)
{
    void (*fn)(void *) = (void (*)(void *))(uintptr_t)((uint64_t)fh << 32 | fl);
    fn((void *)(uintptr_t)((uint64_t)ah << 32 | al));
    abort();
}

/* The ucontext of a fiber sits at the bottom of its stack. */
void *vq_emu_fiber_init(void *stack, size_t size, void (*fn)(void *), void *arg)
{
    ucontext_t *uc = stack;
    size_t skip = (sizeof(*uc) + 63) & ~(size_t)63;
    getcontext(uc);
    uc->uc_stack.ss_sp = (char *)stack + skip;
    uc->uc_stack.ss_size = size - skip;
    uc->uc_link = NULL;
    /* makecontext passes ints: the pointers in two halves each */
    uint64_t f = (uintptr_t)fn, a = (uintptr_t)arg;
    makecontext(uc, (void (*)(void))fiber_start, 4,
                (unsigned)(f >> 32), (unsigned)f, (unsigned)(a >> 32),
                (unsigned)a);
    return uc;
}

void vq_emu_fiber_switch(void **from, void *to)
{
    swapcontext((ucontext_t *)*from, (ucontext_t *)to);
}

void *vq_emu_fiber_main_slot(void)
{
    static _Thread_local ucontext_t main_uc;
    return &main_uc;
}

#endif
